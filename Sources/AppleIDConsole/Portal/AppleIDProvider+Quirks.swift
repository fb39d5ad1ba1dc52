import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Per-client switches between Apple's current traffic and documented variants (spec §19): what the
/// admin API's `PUT /admin/clients/{client}/quirks` reads and a declaration's `quirks:` holds.
public struct QuirkChanges: Codable, Sendable, Hashable {
    public var booleansAsStrings: Bool?
    public var idTokenLifetime: Int?
    public var deletionEvent: String?
    public var issuer: String?
    /// A Managed Apple ID's `email_verified` as a JSON `false` instead of Apple's example's `"false"`.
    public var managedEmailVerifiedAsBoolean: Bool?
    /// `YYYY-MM-DD`: this client's tokens as Apple wrote them on that day (``AppleDatedChange``); an
    /// empty string clears the client's day.
    public var appleAsOf: String?

    public init(
        booleansAsStrings: Bool? = nil, idTokenLifetime: Int? = nil, deletionEvent: String? = nil, issuer: String? = nil,
        managedEmailVerifiedAsBoolean: Bool? = nil, appleAsOf: String? = nil
    ) {
        self.booleansAsStrings = booleansAsStrings
        self.idTokenLifetime = idTokenLifetime
        self.deletionEvent = deletionEvent
        self.issuer = issuer
        self.managedEmailVerifiedAsBoolean = managedEmailVerifiedAsBoolean
        self.appleAsOf = appleAsOf
    }

    /// The switches of `quirks` that differ from current traffic; `nil` when none does.
    public init?(differencesIn quirks: ClientQuirks) {
        self.init(
            booleansAsStrings: quirks.booleanStyle.map { $0 == .string }, idTokenLifetime: quirks.idTokenLifetime,
            deletionEvent: quirks.deletionEvent?.rawValue, issuer: quirks.issuer,
            managedEmailVerifiedAsBoolean: quirks.managedEmailVerifiedStyle == .boolean ? true : nil, appleAsOf: quirks.appleAsOf?.description)
        if self == QuirkChanges() { return nil }
    }

    /// Each switch that is set on its own, by its key: a declaration checks them one by one, so that
    /// an error names the line of its switch.
    public var setSwitches: [(key: String, change: QuirkChanges)] {
        [
            booleansAsStrings.map { (CodingKeys.booleansAsStrings.rawValue, QuirkChanges(booleansAsStrings: $0)) },
            idTokenLifetime.map { (CodingKeys.idTokenLifetime.rawValue, QuirkChanges(idTokenLifetime: $0)) },
            deletionEvent.map { (CodingKeys.deletionEvent.rawValue, QuirkChanges(deletionEvent: $0)) },
            issuer.map { (CodingKeys.issuer.rawValue, QuirkChanges(issuer: $0)) },
            managedEmailVerifiedAsBoolean.map {
                (CodingKeys.managedEmailVerifiedAsBoolean.rawValue, QuirkChanges(managedEmailVerifiedAsBoolean: $0))
            },
            appleAsOf.map { (CodingKeys.appleAsOf.rawValue, QuirkChanges(appleAsOf: $0)) },
        ].compactMap { $0 }
    }

    enum CodingKeys: String, CodingKey {
        case issuer
        case managedEmailVerifiedAsBoolean = "managed_email_verified_as_boolean"
        case booleansAsStrings = "booleans_as_strings"
        case idTokenLifetime = "id_token_lifetime"
        case deletionEvent = "deletion_event"
        case appleAsOf = "apple_as_of"
    }
}

extension ClientQuirks {
    /// These quirks with the switches that are set changed; every switch is checked.
    public func applying(_ changes: QuirkChanges) throws(ConsoleError) -> ClientQuirks {
        var quirks = self
        if let strings = changes.booleansAsStrings { quirks.booleanStyle = strings ? .string : .boolean }
        if let boolean = changes.managedEmailVerifiedAsBoolean { quirks.managedEmailVerifiedStyle = boolean ? .boolean : nil }
        if let lifetime = changes.idTokenLifetime {
            let range = Self.idTokenLifetimes
            guard range.contains(lifetime) else {
                throw .invalid("id_token_lifetime is a number of seconds from \(range.lowerBound) to \(range.upperBound)")
            }
            quirks.idTokenLifetime = lifetime
        }
        if let spelling = changes.deletionEvent {
            let event = NotificationEventType(rawValue: spelling)
            guard event.isAccountDeletion else { throw .invalid("deletion_event is account-delete or account-deleted") }
            quirks.deletionEvent = event
        }
        if let issuer = changes.issuer {
            guard URL(string: issuer)?.host != nil else { throw .invalid("issuer must be an absolute URL") }
            quirks.issuer = issuer
        }
        if let text = changes.appleAsOf {
            // An empty day takes the client's day away: the server's day (or today) applies again.
            if text.isEmpty {
                quirks.appleAsOf = nil
            } else {
                guard let day = AppleDate(text) else { throw .invalid("apple_as_of is \(AppleDate.expected)") }
                quirks.appleAsOf = day
            }
        }
        return quirks
    }
}

extension AppleIDProvider {
    /// Applies the switches that are set; all are checked before any is saved.
    public func changeQuirks(clientID: ClientID, _ changes: QuirkChanges) async throws -> RegisteredClient {
        guard var client = try await store.client(clientID) else { throw ConsoleError.notFound("There is no client \(clientID).") }
        client.quirks = try client.quirks.applying(changes)
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// Sets the client's quirks to exactly `declared`: a switch left out goes back to current traffic
    /// (a declaration's `quirks:`). Answers whether anything changed.
    public func setQuirks(clientID: ClientID, _ declared: QuirkChanges) async throws -> Bool {
        guard var client = try await store.client(clientID) else { throw ConsoleError.notFound("There is no client \(clientID).") }
        let quirks = try ClientQuirks().applying(declared)
        guard client.quirks != quirks else { return false }
        client.quirks = quirks
        try await store.save(client)
        registryDidChange()
        return true
    }
}
