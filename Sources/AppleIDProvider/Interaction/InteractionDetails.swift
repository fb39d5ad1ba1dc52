import AppleIDProtocol
import Foundation

/// What a sign-in or consent page shows of an interaction, read in a fixed number of store
/// statements (node-oidc-provider's `interactionDetails()` is the model).
public struct InteractionDetails: Sendable {
    public var interaction: Interaction
    /// The Apple ID signed in so far; `nil` before the password step (or once it was deleted).
    public var account: AppleIDAccount?
    /// The app group's display name, or the client ID when the group has none.
    public var appName: String
    public var asksForName: Bool
    public var asksForEmail: Bool
    /// The relay address the team already gave this Apple ID, which hiding the e-mail shares again;
    /// `nil` when hiding would make a new one.
    public var relayAddress: String?
    /// What the consent page has chosen before the user changes anything: the engine's default
    /// (``ConsentChoices/headlessDefault(for:)``), the same that headless approval uses.
    public var defaultChoices: ConsentChoices?
    /// The organization of a Managed Apple ID, whose name the pages show.
    public var organization: Organization?
}

extension InteractionService {
    /// Starts a sign-in for a validated request from a browser that holds `sessionCookie` (or none).
    public func start(_ request: ValidatedAuthorization, browserBinding: String, sessionCookie: String?) async throws -> Interaction {
        var session: BrowserSession?
        if let sessionCookie { session = try await store.browserSession(idHash: OpaqueToken.hash(sessionCookie)) }
        return try await start(request, browserBinding: browserBinding, session: session)
    }

    /// The interaction's read model: at most three store statements (account, app group, identity),
    /// and for a Managed Apple ID its organization (which has no relay address, so no identity read).
    public func details(of interaction: Interaction) async throws -> InteractionDetails {
        var account: AppleIDAccount?
        if let accountID = interaction.accountID { account = try await store.activeAccount(id: accountID) }
        let group = try await store.appGroup(interaction.request.groupID)
        var relayAddress: String?
        var organization: Organization?
        if let managed = account?.managed {
            organization = try await store.organization(id: managed.organizationID)
        } else if let account, interaction.request.asksForEmail {
            relayAddress = try await store.teamIdentity(accountID: account.id, teamID: interaction.request.teamID)?.relayAddress
        }
        return InteractionDetails(
            interaction: interaction, account: account, appName: group?.displayName ?? interaction.request.clientID.rawValue,
            asksForName: interaction.request.asksForName, asksForEmail: interaction.request.asksForEmail, relayAddress: relayAddress,
            defaultChoices: account.map { ConsentChoices.headlessDefault(for: $0) }, organization: organization)
    }
}
