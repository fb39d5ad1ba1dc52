import Foundation

/// When an Apple ID locks after failed sign-in attempts (passwords and two-factor codes together,
/// from the authorization pages and the account pages alike).
///
/// Every attempt is counted *before* its check, in one atomic store step that also sets the lock
/// the attempt would earn if it failed. Concurrent guesses therefore cannot all be checked: once the
/// count reaches ``backoffFrom`` each admitted attempt locks the Apple ID, and attempts made while
/// it is locked are refused unchecked (and not counted). A correct password gives its count back; a
/// completed sign-in clears the count.
public struct SignInLockPolicy: Sendable, Hashable {
    /// The attempt with this number, and each one after it, locks the Apple ID before it is checked.
    public var backoffFrom: Int = 5
    /// The lock earned by attempt `backoffFrom + k` is `backoffStep × (k + 1)`.
    public var backoffStep: TimeInterval = 60
    /// From this attempt on, each attempt locks the Apple ID for ``lockoutDuration``.
    public var lockoutFrom: Int = 10
    public var lockoutDuration: TimeInterval = 3_600

    public init() {}

    /// The lock the attempt with number `attempt` sets, or `nil` below ``backoffFrom``.
    public func lock(forAttempt attempt: Int) -> TimeInterval? {
        if attempt >= lockoutFrom { return lockoutDuration }
        if attempt >= backoffFrom { return backoffStep * TimeInterval(attempt - backoffFrom + 1) }
        return nil
    }

    /// What a sign-in page says while the Apple ID is locked.
    public static func message(lockedUntil: Date, now: Date) -> String {
        let minutes = max(1, Int((lockedUntil.timeIntervalSince(now) / 60).rounded(.up)))
        return "Too many failed attempts with this Apple ID. Try again in \(minutes) minute\(minutes == 1 ? "" : "s")."
    }
}

/// The answer to "may this attempt be checked?".
public enum SignInAdmission: Sendable, Hashable {
    /// Check it; it is attempt number `attempt` since the last completed sign-in.
    case admitted(attempt: Int)
    /// The Apple ID is locked until then; the attempt was not counted and must not be checked.
    case locked(until: Date)
}

/// The per-Apple-ID attempt counter and the last accepted two-factor step. Kept in the store so that
/// it holds across the OAuth pages, the account pages and several server instances.
public protocol SignInAttemptStore: Sendable {
    /// Unless the account is locked at `now`, counts one more attempt and sets the lock that
    /// `policy` gives that attempt: one atomic step.
    func admitSignInAttempt(accountID: String, now: Date, policy: SignInLockPolicy) async throws -> SignInAdmission
    /// Gives back the count of an attempt that passed an intermediate step (a correct password before
    /// the two-factor code) and lifts the lock that attempt set.
    func refundSignInAttempt(accountID: String) async throws
    /// A completed sign-in: the count starts again from zero.
    func clearSignInAttempts(accountID: String) async throws
    /// Records `step` (a TOTP time step) as the last accepted one, unless that step or a later one was
    /// already accepted: a code is used once. Returns whether it was recorded.
    func acceptSecondFactorStep(_ step: Int64, accountID: String) async throws -> Bool
}
