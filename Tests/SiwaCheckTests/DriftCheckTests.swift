import Testing

@testable import SiwaCheck

/// Issue 37: the drift checks are advice (a change the app would not survive), unless the app fails on
/// the side of the change that is Apple's traffic today.
@Suite("siwa check: a drift check is advice unless the app fails on today's traffic")
struct DriftCheckTests {
    @Test("every drift check is advice, and runs after the deletion checks")
    func adviceAndLast() {
        #expect(
            AppChecker.driftChecks == [
                .driftBooleanClaims, .driftIssuerFlip, .driftRelayDomain, .driftDeletionSpelling, .driftNotificationRedelivery, .driftKeyRotation,
            ])
        #expect(AppChecker.driftChecks.allSatisfy { $0.checkClass == .advice })
        #expect(Array(CheckID.allCases.suffix(AppChecker.driftChecks.count)) == AppChecker.driftChecks)
    }

    @Test("a failed drift check does not fail the run, but with --strict")
    func adviceFailure() {
        let results = [CheckResult(.callbackBaseline, .passed, "signed in"), CheckResult(.driftKeyRotation, .failed, "a new kid refused")]
        #expect(!CheckReport(results: results, seconds: 0).failed)
        #expect(CheckReport(results: results, seconds: 0, strict: true).failed)
    }

    @Test("failing on today's side of the change is required, and says so")
    func todaysTraffic() {
        let result = CheckClassRules.drift(.driftBooleanClaims, failedToday: "booleans refused")
        #expect(result.outcome == .failed && result.checkClass == .required)
        #expect(result.detail.contains("Apple's traffic today"))
        #expect(CheckReport(results: [result], seconds: 0).failed)
    }
}
