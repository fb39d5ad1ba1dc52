import Foundation

extension AppleIDProvider {
    /// How long a code is kept past its expiry: a replay within it is still recognised as one (and
    /// revokes what the code issued) rather than answered as an unknown code. A day: replays come from
    /// retried requests, queues and restarted jobs, within hours of the first redemption, so a day covers
    /// them with margin while the table of spent codes stays small.
    static let expiredCodeRetention: TimeInterval = 86_400

    /// Deletes expired codes, access tokens, interactions and browser sessions; answers how many rows
    /// went. The relay purges its own mail (`MailRelay.purgeExpiredMail()`) and the console its
    /// sessions and invitations (`purgeExpiredConsoleRecords()`), in the same sweep.
    public func purgeExpiredRecords() async throws -> Int {
        let now = clock.now()
        return try await store.purgeExpired(now: now, codesExpiredBefore: now.addingTimeInterval(-Self.expiredCodeRetention))
    }
}
