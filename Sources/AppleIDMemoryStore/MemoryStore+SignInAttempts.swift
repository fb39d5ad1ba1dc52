import AppleIDProvider
import Foundation

extension MemoryStore: SignInAttemptStore {
    struct SignInAttemptRecord {
        var attempts = 0
        var lockedUntil: Date?
        var lastSecondFactorStep: Int64?
    }

    public func admitSignInAttempt(accountID: String, now: Date, policy: SignInLockPolicy) async throws -> SignInAdmission {
        state.withLock { state in
            var record = state.signInAttempts[accountID] ?? SignInAttemptRecord()
            if let lockedUntil = record.lockedUntil, lockedUntil > now { return .locked(until: lockedUntil) }
            record.attempts += 1
            record.lockedUntil = policy.lock(forAttempt: record.attempts).map { now.addingTimeInterval($0) }
            state.signInAttempts[accountID] = record
            return .admitted(attempt: record.attempts)
        }
    }

    public func refundSignInAttempt(accountID: String) async throws {
        state.withLock { state in
            guard var record = state.signInAttempts[accountID] else { return }
            record.attempts = max(0, record.attempts - 1)
            record.lockedUntil = nil
            state.signInAttempts[accountID] = record
        }
    }

    public func clearSignInAttempts(accountID: String) async throws {
        state.withLock { state in
            state.signInAttempts[accountID]?.attempts = 0
            state.signInAttempts[accountID]?.lockedUntil = nil
        }
    }

    public func acceptSecondFactorStep(_ step: Int64, accountID: String) async throws -> Bool {
        state.withLock { state in
            var record = state.signInAttempts[accountID] ?? SignInAttemptRecord()
            if let last = record.lastSecondFactorStep, last >= step { return false }
            record.lastSecondFactorStep = step
            state.signInAttempts[accountID] = record
            return true
        }
    }
}
