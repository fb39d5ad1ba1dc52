import Foundation
import SQLKit

/// The `jti` of every Apple notification Juice applied, kept until the notification expires: a
/// notification captured on the way (or delivered twice) is answered 200 and not acted on again.
struct SeenNotifications: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date

    private var sql: any SQLDatabase { database.sql }

    /// Claims `jti` for processing; `false` when it was already claimed (a replay). One statement, so
    /// of two concurrent deliveries exactly one gets `true`. Expired entries go first.
    func claim(_ jti: String, until expiresAt: Date) async throws -> Bool {
        try await sql.raw("DELETE FROM seen_notifications WHERE expires_at <= \(bind: clock().timeIntervalSince1970)").run()
        let claimed = try await sql.raw(
            """
            INSERT INTO seen_notifications (jti, expires_at) VALUES (\(bind: jti), \(bind: expiresAt.timeIntervalSince1970))
            ON CONFLICT (jti) DO NOTHING RETURNING jti
            """
        ).first()
        return claimed != nil
    }

    /// Gives a claim back when applying the notification failed, so Apple's retry is applied.
    func release(_ jti: String) async throws {
        try await sql.raw("DELETE FROM seen_notifications WHERE jti = \(bind: jti)").run()
    }
}
