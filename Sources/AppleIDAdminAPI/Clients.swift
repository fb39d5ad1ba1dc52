import Foundation

/// `POST /admin/clients/{client}/return-urls`: a Return URL for a Services ID.
public struct ReturnURLOrder: Codable, Sendable, Equatable {
    public var url: String
    public init(url: String) { self.url = url }
}

/// `PUT /admin/clients/{client}/quirks`: the switches given change, the others stay.
public struct QuirksOrder: Codable, Sendable, Equatable {
    public var booleansAsStrings: Bool?
    public var idTokenLifetime: Int?
    /// `account-delete` or `account-deleted`.
    public var deletionEvent: String?
    public var issuer: String?
    public var managedEmailVerifiedAsBoolean: Bool?
    /// `YYYY-MM-DD`: the client's tokens as Apple wrote them on that day.
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

    enum CodingKeys: String, CodingKey {
        case issuer
        case managedEmailVerifiedAsBoolean = "managed_email_verified_as_boolean"
        case booleansAsStrings = "booleans_as_strings"
        case idTokenLifetime = "id_token_lifetime"
        case deletionEvent = "deletion_event"
        case appleAsOf = "apple_as_of"
    }
}

/// A client (App ID or Services ID) as the admin API shows it.
public struct ClientView: Codable, Sendable, Equatable {
    public var clientID: String
    /// `app-id` or `services-id`.
    public var kind: String
    public var teamID: String
    public var groupID: String
    public var returnURLs: [String]
    /// Set only when the client's switch is: `nil` is today's traffic (booleans, or the client's day's).
    public var booleansAsStrings: Bool?
    public var idTokenLifetime: Int?
    public var deletionEvent: String?
    public var issuer: String?
    /// An App ID's associated domains for `webcredentials`.
    public var webCredentialsDomains: [String]
    /// `YYYY-MM-DD` when the client speaks as Apple did on that day.
    public var appleAsOf: String?

    public init(
        clientID: String, kind: String, teamID: String, groupID: String, returnURLs: [String], booleansAsStrings: Bool?, idTokenLifetime: Int?,
        deletionEvent: String?, issuer: String?, webCredentialsDomains: [String], appleAsOf: String? = nil
    ) {
        self.clientID = clientID
        self.kind = kind
        self.teamID = teamID
        self.groupID = groupID
        self.returnURLs = returnURLs
        self.booleansAsStrings = booleansAsStrings
        self.idTokenLifetime = idTokenLifetime
        self.deletionEvent = deletionEvent
        self.issuer = issuer
        self.webCredentialsDomains = webCredentialsDomains
        self.appleAsOf = appleAsOf
    }

    enum CodingKeys: String, CodingKey {
        case kind, issuer
        case clientID = "client_id"
        case teamID = "team_id"
        case groupID = "group_id"
        case returnURLs = "return_urls"
        case booleansAsStrings = "booleans_as_strings"
        case idTokenLifetime = "id_token_lifetime"
        case deletionEvent = "deletion_event"
        case webCredentialsDomains = "webcredentials_domains"
        case appleAsOf = "apple_as_of"
    }
}

/// One request-log entry (the console's Requests page): `siwa check` reads why the app's token
/// request was refused and whether it called /auth/revoke.
public struct RequestView: Codable, Sendable, Equatable {
    public var endpoint: String
    public var at: Date
    public var outcome: String
    public var reason: String
    /// False for a request that did not prove its client (a wrong client secret: `invalid_client`).
    public var proven: Bool

    public init(endpoint: String, at: Date, outcome: String, reason: String, proven: Bool) {
        self.endpoint = endpoint
        self.at = at
        self.outcome = outcome
        self.reason = reason
        self.proven = proven
    }
}

/// `GET /admin/clients/{client}/requests`, newest first.
public struct RequestList: Codable, Sendable, Equatable {
    public var requests: [RequestView]
    public init(requests: [RequestView]) { self.requests = requests }
}
