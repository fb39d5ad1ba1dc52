import AppleIDProtocol
import Foundation

/// The developer registry: teams, app groups, clients and Sign in with Apple keys.
public protocol RegistryStore: Sendable {
    func team(_ id: TeamID) async throws -> DeveloperTeam?
    func save(_ team: DeveloperTeam) async throws
    func appGroup(_ id: ClientID) async throws -> AppGroup?
    func save(_ group: AppGroup) async throws
    func client(_ id: ClientID) async throws -> RegisteredClient?
    func save(_ client: RegisteredClient) async throws
    func developerKey(_ id: KeyID) async throws -> DeveloperKey?
    func save(_ key: DeveloperKey) async throws
}

/// Apple IDs and their team-scoped identities.
public protocol AccountStore: Sendable {
    func account(id: String) async throws -> AppleIDAccount?
    func account(appleID: String) async throws -> AppleIDAccount?
    func accounts() async throws -> [AppleIDAccount]
    /// Inserts or replaces; the Apple ID (login) is unique.
    func save(_ account: AppleIDAccount) async throws
    func teamIdentity(accountID: String, teamID: TeamID) async throws -> TeamIdentity?
    /// Inserts the identity unless one exists for the account and team; returns the stored one,
    /// so two racing first sign-ins agree on one `sub`.
    func insertTeamIdentity(_ identity: TeamIdentity) async throws -> TeamIdentity
    func save(_ identity: TeamIdentity) async throws
}

/// Consents per user and app group.
public protocol ConsentStore: Sendable {
    func consent(accountID: String, groupID: ClientID) async throws -> Consent?
    func save(_ consent: Consent) async throws
    func deleteConsent(accountID: String, groupID: ClientID) async throws
}

/// Grants, authorization codes, access and refresh tokens.
public protocol GrantStore: Sendable {
    func save(_ grant: Grant) async throws
    func grant(id: String) async throws -> Grant?
    /// Marks every live grant of the user for the group revoked; returns how many.
    @discardableResult
    func revokeGrants(accountID: String, groupID: ClientID, at date: Date) async throws -> Int
    func revokeGrant(id: String, at date: Date) async throws
    func save(_ code: AuthorizationCodeRecord) async throws
    /// Atomically marks the code consumed. Of any number of concurrent callers, exactly one gets
    /// ``CodeRedemption/redeemed(_:)``.
    func consumeCode(hash: String, at date: Date) async throws -> CodeRedemption
    /// Inserts new tokens (every hash is new): one statement for the access and refresh token of
    /// an exchange.
    func insert(_ tokens: [TokenRecord]) async throws
    func token(hash: String) async throws -> TokenRecord?
}

/// Sign-in interactions in progress and browser sessions of signed-in Apple IDs.
public protocol InteractionStore: Sendable {
    func save(_ interaction: Interaction) async throws
    func interaction(id: String) async throws -> Interaction?
    func deleteInteraction(id: String) async throws
    func save(_ session: BrowserSession) async throws
    func browserSession(idHash: String) async throws -> BrowserSession?
    func deleteBrowserSession(idHash: String) async throws
}

/// The provider's signing keys.
public protocol SigningKeyStore: Sendable {
    func signingKeys() async throws -> [SigningKeyRecord]
    func save(_ key: SigningKeyRecord) async throws
}

/// Everything the provider stores. The memory store and the SQL stores implement all of it and
/// pass one conformance suite.
public typealias ProviderStore = RegistryStore & AccountStore & ConsentStore & GrantStore & InteractionStore & SigningKeyStore

/// A storage failure that is not the caller's fault to retry blindly.
public enum StoreError: Error, Equatable, CustomStringConvertible {
    case conflict(String)

    public var description: String {
        switch self {
        case .conflict(let what): "conflict: \(what)"
        }
    }
}
