import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The people who sign in to the console.
public protocol DeveloperAccountStore: Sendable {
    func developer(id: String) async throws -> DeveloperAccount?
    func developer(email: String) async throws -> DeveloperAccount?
    /// The developers who belong to the team.
    func developers(teamID: TeamID) async throws -> [DeveloperAccount]
    /// Inserts or replaces; the e-mail address is unique.
    func save(_ developer: DeveloperAccount) async throws
}
