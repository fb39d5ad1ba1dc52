import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A person who signs in to the console. Belongs to one or more teams.
public struct DeveloperAccount: Codable, Sendable, Hashable {
    public var id: String
    /// Lower-cased; the sign-in name.
    public var email: String
    public var name: String
    /// bcrypt.
    public var passwordHash: String
    public var teamIDs: [TeamID]

    public init(id: String, email: String, name: String, passwordHash: String, teamIDs: [TeamID]) {
        self.id = id
        self.email = email.lowercased()
        self.name = name
        self.passwordHash = passwordHash
        self.teamIDs = teamIDs
    }
}

/// A signed-in console browser. Only the cookie's hash is stored; the CSRF token is checked on every
/// form post.
public struct ConsoleSession: Codable, Sendable, Hashable {
    public var idHash: String
    public var developerID: String
    /// The team the developer is working in (one of theirs).
    public var teamID: TeamID
    public var csrfToken: String
    public var expiresAt: Date

    public init(idHash: String, developerID: String, teamID: TeamID, csrfToken: String, expiresAt: Date) {
        self.idHash = idHash
        self.developerID = developerID
        self.teamID = teamID
        self.csrfToken = csrfToken
        self.expiresAt = expiresAt
    }
}
