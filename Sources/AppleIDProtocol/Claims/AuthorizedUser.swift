import Foundation

/// The `user` JSON string sent on the first authorization only (spec §3.3):
/// `{"name":{"firstName":…,"lastName":…},"email":…}`, each part only when its scope was granted.
public struct AuthorizedUser: Codable, Sendable, Hashable {
    public struct Name: Codable, Sendable, Hashable {
        public var firstName: String
        public var lastName: String
        public init(firstName: String, lastName: String) {
            self.firstName = firstName
            self.lastName = lastName
        }
    }

    public var name: Name?
    public var email: String?

    public init(name: Name?, email: String?) {
        self.name = name
        self.email = email
    }

    /// The compact JSON string that goes into the `user` form field.
    public func jsonString() throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes]
        return String(decoding: try encoder.encode(self), as: UTF8.self)
    }

    public init(jsonString: String) throws {
        self = try JSONDecoder().decode(AuthorizedUser.self, from: Data(jsonString.utf8))
    }
}
