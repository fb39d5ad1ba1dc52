import AppleIDProtocol

/// Stored as JSON in the registry. Before the `apple_as_of` quirk, `booleanStyle` was always written
/// and `boolean` meant "not switched": such a row still follows the date; a switch set now is
/// written under `booleanClaimStyle`.
extension ClientQuirks: Codable {
    enum CodingKeys: String, CodingKey {
        case booleanClaimStyle, idTokenLifetime, deletionEvent, issuer, managedEmailVerifiedStyle, appleAsOf
        case legacyBooleanStyle = "booleanStyle"
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let legacy = try container.decodeIfPresent(BooleanClaim.Style.self, forKey: .legacyBooleanStyle)
        self.init(
            booleanStyle: try container.decodeIfPresent(BooleanClaim.Style.self, forKey: .booleanClaimStyle) ?? (legacy == .string ? .string : nil),
            idTokenLifetime: try container.decodeIfPresent(Int.self, forKey: .idTokenLifetime),
            deletionEvent: try container.decodeIfPresent(NotificationEventType.self, forKey: .deletionEvent),
            issuer: try container.decodeIfPresent(String.self, forKey: .issuer),
            managedEmailVerifiedStyle: try container.decodeIfPresent(BooleanClaim.Style.self, forKey: .managedEmailVerifiedStyle),
            appleAsOf: try container.decodeIfPresent(AppleDate.self, forKey: .appleAsOf))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(booleanStyle, forKey: .booleanClaimStyle)
        try container.encodeIfPresent(idTokenLifetime, forKey: .idTokenLifetime)
        try container.encodeIfPresent(deletionEvent, forKey: .deletionEvent)
        try container.encodeIfPresent(issuer, forKey: .issuer)
        try container.encodeIfPresent(managedEmailVerifiedStyle, forKey: .managedEmailVerifiedStyle)
        try container.encodeIfPresent(appleAsOf, forKey: .appleAsOf)
    }
}
