import AppleIDProtocol

/// Something that may ask for authorization: an App ID (native) or a Services ID (web).
public struct RegisteredClient: Codable, Sendable, Hashable {
    public enum Kind: String, Codable, Sendable, Hashable {
        case app
        case service
    }

    public var id: ClientID
    public var kind: Kind
    public var teamID: TeamID
    /// The primary App ID of the group this client belongs to (itself, for a primary App ID).
    public var groupID: ClientID
    /// Registered Return URLs; `redirect_uri` must equal one of them exactly (spec §12).
    public var returnURLs: [String]
    public var quirks: ClientQuirks
    /// The description the developer gave it in the console.
    public var description: String
    /// A Services ID's "Domains and Subdomains" (bare host names, spec §12).
    public var domains: [String]
    /// An App ID's associated domains for `webcredentials` (bare host names, as in the app's
    /// entitlement `webcredentials:example.com`): the device offers the keychain's passwords of
    /// these websites to the app.
    public var webCredentialsDomains: [String]

    public init(
        id: ClientID, kind: Kind, teamID: TeamID, groupID: ClientID, returnURLs: [String] = [],
        quirks: ClientQuirks = ClientQuirks(), description: String = "", domains: [String] = [], webCredentialsDomains: [String] = []
    ) {
        self.id = id
        self.kind = kind
        self.teamID = teamID
        self.groupID = groupID
        self.returnURLs = returnURLs
        self.quirks = quirks
        self.description = description
        self.domains = domains
        self.webCredentialsDomains = webCredentialsDomains
    }

    /// A Services ID disassociated from its primary App ID is its own group: no Return URLs, no
    /// domains, and it no longer moves with the group.
    public var isAssociated: Bool { kind == .app || groupID != id }
}

/// Per-client switches between Apple's current traffic (the default) and documented or older
/// variants (spec §19). A switch that is set wins over ``appleAsOf`` and the server's date.
public struct ClientQuirks: Sendable, Hashable {
    /// `email_verified` / `is_private_email` as JSON booleans (traffic since 2024) or strings; `nil`
    /// follows the date (``AppleDatedChange/booleanClaims``).
    public var booleanStyle: BooleanClaim.Style?
    /// The id_token lifetimes a client may be switched to: 1 s to a year (Apple: 600 or 86,400).
    public static let idTokenLifetimes: ClosedRange<Int> = 1...31_536_000
    /// id_token lifetime in seconds; `nil` uses the provider's default (86,400 s, current traffic).
    public var idTokenLifetime: Int?
    /// The account-deletion event's spelling for this app group's notifications (set on the primary
    /// App ID); `nil` uses the provider's (`account-delete`, current traffic; spec §19 #1).
    public var deletionEvent: NotificationEventType?
    /// The `iss` of this client's id_tokens; `nil` uses the provider's issuer.
    public var issuer: String?
    /// `email_verified` of a Managed Apple ID's id_tokens (always false): `nil` writes the string
    /// `"false"`, as Apple's example does; ``BooleanClaim/Style/boolean`` a JSON `false` (spec §21 item 5).
    public var managedEmailVerifiedStyle: BooleanClaim.Style?
    /// This client's tokens as Apple wrote them on this day; `nil` follows the server's date.
    public var appleAsOf: AppleDate?

    public init(
        booleanStyle: BooleanClaim.Style? = nil, idTokenLifetime: Int? = nil, deletionEvent: NotificationEventType? = nil,
        issuer: String? = nil, managedEmailVerifiedStyle: BooleanClaim.Style? = nil, appleAsOf: AppleDate? = nil
    ) {
        self.booleanStyle = booleanStyle
        self.idTokenLifetime = idTokenLifetime
        self.deletionEvent = deletionEvent
        self.issuer = issuer
        self.managedEmailVerifiedStyle = managedEmailVerifiedStyle
        self.appleAsOf = appleAsOf
    }

    /// The style of `email_verified` and `is_private_email`: the switch, else Apple's on the client's
    /// day, else on the server's day, else today's (booleans).
    public func resolvedBooleanStyle(serverAsOf: AppleDate?) -> BooleanClaim.Style {
        if let booleanStyle { return booleanStyle }
        return AppleDatedChange.booleanClaims.isInEffect(asOf: appleAsOf ?? serverAsOf) ? .boolean : .string
    }
}
