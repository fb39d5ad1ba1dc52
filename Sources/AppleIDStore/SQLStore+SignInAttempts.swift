import AppleIDProvider
import Foundation
import SQLKit

extension SQLStore: SignInAttemptStore {
    static let signInAttemptsTable = "sign_in_attempts"

    /// One `INSERT … ON CONFLICT DO UPDATE … WHERE <not locked> RETURNING`: the count and the lock
    /// the attempt earns are written together, and a locked row is left untouched (no row comes
    /// back). SQLite serialises writers; PostgreSQL re-checks the `WHERE` against the row a
    /// concurrent attempt just wrote. Either way concurrent guesses see each other's locks.
    public func admitSignInAttempt(accountID: String, now: Date, policy: SignInLockPolicy) async throws -> SignInAdmission {
        let nowSeconds = now.sqlSeconds
        let firstLock = policy.lock(forAttempt: 1).map { nowSeconds + $0 }
        let admitted = try await db.raw(
            """
            INSERT INTO sign_in_attempts (account_id, attempts, locked_until) VALUES (\(bind: accountID), 1, \(bind: firstLock))
            ON CONFLICT (account_id) DO UPDATE SET
                attempts = sign_in_attempts.attempts + 1,
                locked_until = CASE
                    WHEN sign_in_attempts.attempts + 1 >= \(bind: policy.lockoutFrom) THEN \(bind: nowSeconds + policy.lockoutDuration)
                    WHEN sign_in_attempts.attempts + 1 >= \(bind: policy.backoffFrom)
                        THEN \(bind: nowSeconds) + \(bind: policy.backoffStep) * (sign_in_attempts.attempts + 2 - \(bind: policy.backoffFrom))
                    ELSE NULL END
            WHERE sign_in_attempts.locked_until IS NULL OR sign_in_attempts.locked_until <= \(bind: nowSeconds)
            RETURNING attempts
            """
        ).first()
        if let admitted { return .admitted(attempt: try admitted.decode(column: "attempts", as: Int.self)) }
        let lockedUntil = try await db.select().column("locked_until").from(Self.signInAttemptsTable)
            .where("account_id", .equal, accountID)
            .first()?
            .decode(column: "locked_until", as: Double?.self)
        return .locked(until: Date(sqlSeconds: lockedUntil ?? nowSeconds))
    }

    public func refundSignInAttempt(accountID: String) async throws {
        try await db.raw(
            """
            UPDATE sign_in_attempts SET attempts = CASE WHEN attempts > 0 THEN attempts - 1 ELSE 0 END, locked_until = NULL
            WHERE account_id = \(bind: accountID)
            """
        ).run()
    }

    public func clearSignInAttempts(accountID: String) async throws {
        try await db.update(Self.signInAttemptsTable)
            .set("attempts", to: 0)
            .set("locked_until", to: SQLLiteral.null)
            .where("account_id", .equal, accountID)
            .run()
    }

    /// Inserts the row if there is none, then one conditional `UPDATE … RETURNING`: of two
    /// concurrent uses of one code, exactly one moves the step forward.
    public func acceptSecondFactorStep(_ step: Int64, accountID: String) async throws -> Bool {
        try await db.raw(
            """
            INSERT INTO sign_in_attempts (account_id, attempts) VALUES (\(bind: accountID), 0)
            ON CONFLICT (account_id) DO NOTHING
            """
        ).run()
        let accepted = try await db.raw(
            """
            UPDATE sign_in_attempts SET last_second_factor_step = \(bind: step)
            WHERE account_id = \(bind: accountID)
                AND (last_second_factor_step IS NULL OR last_second_factor_step < \(bind: step))
            RETURNING account_id
            """
        ).first()
        return accepted != nil
    }
}
