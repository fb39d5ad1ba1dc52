import AppleIDProvider
import Foundation

/// Signed-in console browsers.
public protocol ConsoleSessionStore: Sendable {
    func save(_ session: ConsoleSession) async throws
    func consoleSession(idHash: String) async throws -> ConsoleSession?
    func deleteConsoleSession(idHash: String) async throws
    /// Deletes the developer's sessions except the one whose hash is `idHash`; returns how many.
    func deleteConsoleSessions(developerID: String, except idHash: String?) async throws -> Int
    /// Deletes the sessions that expired before `date`; returns how many.
    func purgeConsoleSessions(expiredBefore date: Date) async throws -> Int
}
