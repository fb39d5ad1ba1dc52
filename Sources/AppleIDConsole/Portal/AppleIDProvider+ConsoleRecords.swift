import AppleIDProvider
import Foundation

extension AppleIDProvider {
    /// Whether a developer account with this e-mail address exists.
    public func developerExists(email: String) async throws -> Bool {
        try await developerStore.developer(email: email) != nil
    }

    /// Deletes expired console sessions and team invitations; answers how many rows went. Run by the
    /// sweep that runs the engine's ``AppleIDProvider/purgeExpiredRecords()``.
    public func purgeExpiredConsoleRecords() async throws -> Int {
        let now = clock.now()
        return try await consoleSessionStore.purgeConsoleSessions(expiredBefore: now)
            + invitationStore.purgeInvitations(expiredBefore: now)
    }
}
