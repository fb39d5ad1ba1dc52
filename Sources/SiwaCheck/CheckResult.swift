/// What one check found.
public struct CheckResult: Sendable, Hashable, Codable {
    public enum Outcome: String, Sendable, Hashable, Codable {
        case passed
        case failed
        /// Never a pass: the check could not run (no URL given, or a check it depends on failed).
        case notRun = "not run"
    }

    public var check: CheckID
    public var outcome: Outcome
    /// What happened, in a sentence.
    public var detail: String
    /// The check's class, unless a rule of the run decided otherwise (`CheckClassRules`, the one place).
    public internal(set) var checkClass: CheckClass

    public init(_ check: CheckID, _ outcome: Outcome, _ detail: String) {
        self.check = check
        self.outcome = outcome
        self.detail = detail
        self.checkClass = check.checkClass
    }

    /// A required check that failed, or with `strict` any check that failed: the run exits non-zero.
    /// A check that did not run never fails the run.
    public func failsRun(strict: Bool) -> Bool { outcome == .failed && (strict || checkClass == .required) }

    public static func notRun(_ check: CheckID, because dependency: CheckID) -> CheckResult {
        CheckResult(check, .notRun, "not run (because \(dependency.rawValue) failed)")
    }
}
