import Foundation

/// `POST /admin/users/{apple_id}/keychain`: a password the emulated device saves for a website.
public struct PasswordOrder: Codable, Sendable, Equatable {
    public var user: String
    public var password: String
    public var domain: String

    public init(user: String, password: String, domain: String) {
        self.user = user
        self.password = password
        self.domain = domain
    }
}

/// `PUT /admin/clients/{client}/associated-domains`: an App ID's `webcredentials` domains.
public struct DomainsOrder: Codable, Sendable, Equatable {
    public var webcredentials: [String]
    public init(webcredentials: [String]) { self.webcredentials = webcredentials }
}

/// A saved password as the admin API lists it: never the password itself, which only the native
/// credential flow hands out.
public struct SavedPasswordView: Codable, Sendable, Equatable {
    public var user: String
    public var domain: String
    public var savedAt: Date

    public init(user: String, domain: String, savedAt: Date) {
        self.user = user
        self.domain = domain
        self.savedAt = savedAt
    }

    enum CodingKeys: String, CodingKey {
        case user, domain
        case savedAt = "saved_at"
    }
}

/// `GET /admin/users/{apple_id}/keychain`.
public struct SavedPasswordList: Codable, Sendable, Equatable {
    public var passwords: [SavedPasswordView]
    public init(passwords: [SavedPasswordView]) { self.passwords = passwords }
}
