import Foundation
import SQLKit

/// Limits password guesses per account e-mail, on `/signin` and `/link` alike, in Juice's database
/// (so a restart does not reset it). Each attempt is counted before the password is checked, in one
/// statement that also sets the lock a failure would earn: parallel guesses cannot all be checked.
/// From the fifth attempt each one locks the e-mail for 30 s more than the last, from the tenth for
/// 15 minutes; a correct password clears the count. Unknown e-mails are counted too, so the answer
/// never tells whether an account exists.
struct PasswordAttemptThrottle: Sendable {
    let database: JuiceDatabase
    let clock: @Sendable () -> Date
    var backoffFrom = 5
    var backoffStep: TimeInterval = 30
    var lockoutFrom = 10
    var lockoutDuration: TimeInterval = 15 * 60

    private var sql: any SQLDatabase { database.sql }

    /// `nil`: check the password. A date: the e-mail is locked until then; do not check.
    func admit(email: String) async throws -> Date? {
        let now = clock().timeIntervalSince1970
        let admitted = try await sql.raw(
            """
            INSERT INTO password_attempts (email, attempts, locked_until) VALUES (\(bind: email), 1, NULL)
            ON CONFLICT (email) DO UPDATE SET
                attempts = password_attempts.attempts + 1,
                locked_until = CASE
                    WHEN password_attempts.attempts + 1 >= \(bind: lockoutFrom) THEN \(bind: now + lockoutDuration)
                    WHEN password_attempts.attempts + 1 >= \(bind: backoffFrom)
                        THEN \(bind: now) + \(bind: backoffStep) * (password_attempts.attempts + 2 - \(bind: backoffFrom))
                    ELSE NULL END
            WHERE password_attempts.locked_until IS NULL OR password_attempts.locked_until <= \(bind: now)
            RETURNING attempts
            """
        ).first()
        guard admitted == nil else { return nil }
        let lockedUntil = try await sql.raw("SELECT locked_until FROM password_attempts WHERE email = \(bind: email)")
            .first(decodingColumn: "locked_until", as: Double?.self)
        return Date(timeIntervalSince1970: (lockedUntil ?? nil) ?? now)
    }

    /// A correct password: the count starts again.
    func succeeded(email: String) async throws {
        try await sql.raw("DELETE FROM password_attempts WHERE email = \(bind: email)").run()
    }

    /// What the page says while locked: the same for every e-mail, known or not.
    func lockedMessage(until: Date) -> String {
        let seconds = max(1, Int(until.timeIntervalSince(clock()).rounded(.up)))
        let wait = seconds < 120 ? "\(seconds) seconds" : "\((seconds + 59) / 60) minutes"
        return "Too many attempts with this e-mail. Please wait \(wait) and try again."
    }
}
