import AppleIDProtocol
import Foundation

/// Per-client switches between Apple's current traffic and documented variants (spec §19).
public struct QuirkChanges: Sendable, Hashable {
    public var booleansAsStrings: Bool?
    public var idTokenLifetime: Int?
    public var deletionEvent: String?
    public var issuer: String?
    /// A Managed Apple ID's `email_verified` as a JSON `false` instead of Apple's example's `"false"`.
    public var managedEmailVerifiedAsBoolean: Bool?

    public init(
        booleansAsStrings: Bool? = nil, idTokenLifetime: Int? = nil, deletionEvent: String? = nil, issuer: String? = nil,
        managedEmailVerifiedAsBoolean: Bool? = nil
    ) {
        self.booleansAsStrings = booleansAsStrings
        self.idTokenLifetime = idTokenLifetime
        self.deletionEvent = deletionEvent
        self.issuer = issuer
        self.managedEmailVerifiedAsBoolean = managedEmailVerifiedAsBoolean
    }
}

extension AppleIDProvider {
    /// Applies the switches that are set; all are checked before any is saved.
    public func changeQuirks(clientID: ClientID, _ changes: QuirkChanges) async throws -> RegisteredClient {
        guard var client = try await store.client(clientID) else { throw ConsoleError.notFound("There is no client \(clientID).") }
        if let strings = changes.booleansAsStrings { client.quirks.booleanStyle = strings ? .string : .boolean }
        if let boolean = changes.managedEmailVerifiedAsBoolean { client.quirks.managedEmailVerifiedStyle = boolean ? .boolean : nil }
        if let lifetime = changes.idTokenLifetime {
            let range = ClientQuirks.idTokenLifetimes
            guard range.contains(lifetime) else {
                throw ConsoleError.invalid("id_token_lifetime is a number of seconds from \(range.lowerBound) to \(range.upperBound)")
            }
            client.quirks.idTokenLifetime = lifetime
        }
        if let spelling = changes.deletionEvent {
            let event = NotificationEventType(rawValue: spelling)
            guard event.isAccountDeletion else { throw ConsoleError.invalid("deletion_event is account-delete or account-deleted") }
            client.quirks.deletionEvent = event
        }
        if let issuer = changes.issuer {
            guard URL(string: issuer)?.host != nil else { throw ConsoleError.invalid("issuer must be an absolute URL") }
            client.quirks.issuer = issuer
        }
        try await store.save(client)
        registryDidChange()
        return client
    }
}
