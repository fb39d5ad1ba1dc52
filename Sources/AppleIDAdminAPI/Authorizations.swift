import AppleIDProtocol
import Foundation

/// `POST /admin/authorizations`: a headless authorization, `count` answers at once (a supply of
/// fresh codes for load tests). The body holds the authorization request's parameters under their
/// wire names, beside who approves and how.
public struct AuthorizationOrder: Codable, Sendable, Equatable {
    public var authorization: AuthorizationRequest
    public var appleID: String
    public var firstName: String?
    public var lastName: String?
    public var hideEmail: Bool?
    /// 1 to 1000 (default 1).
    public var count: Int?

    public init(
        authorization: AuthorizationRequest, appleID: String, firstName: String? = nil, lastName: String? = nil, hideEmail: Bool? = nil,
        count: Int? = nil
    ) {
        self.authorization = authorization
        self.appleID = appleID
        self.firstName = firstName
        self.lastName = lastName
        self.hideEmail = hideEmail
        self.count = count
    }

    enum CodingKeys: String, CodingKey {
        case appleID = "apple_id"
        case firstName = "first_name"
        case lastName = "last_name"
        case hideEmail = "hide_email"
        case count
    }

    /// One flat object: the request's parameters and the order's own fields side by side.
    public init(from decoder: any Decoder) throws {
        authorization = try AuthorizationRequest(from: decoder)
        let container = try decoder.container(keyedBy: CodingKeys.self)
        appleID = try container.decode(String.self, forKey: .appleID)
        firstName = try container.decodeIfPresent(String.self, forKey: .firstName)
        lastName = try container.decodeIfPresent(String.self, forKey: .lastName)
        hideEmail = try container.decodeIfPresent(Bool.self, forKey: .hideEmail)
        count = try container.decodeIfPresent(Int.self, forKey: .count)
    }

    public func encode(to encoder: any Encoder) throws {
        try authorization.encode(to: encoder)
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(appleID, forKey: .appleID)
        try container.encodeIfPresent(firstName, forKey: .firstName)
        try container.encodeIfPresent(lastName, forKey: .lastName)
        try container.encodeIfPresent(hideEmail, forKey: .hideEmail)
        try container.encodeIfPresent(count, forKey: .count)
    }
}

/// What the server sends back to the Return URL, once per answer: `code`, `id_token`, `state`, `user`…
public struct AuthorizationResults: Codable, Sendable, Equatable {
    public var results: [[String: String]]
    public init(results: [[String: String]]) { self.results = results }
}
