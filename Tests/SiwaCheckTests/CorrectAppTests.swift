import Testing

@testable import SiwaCheck

/// Issue 37: a correct app must pass. Verifying only the token response's id_token (without at_hash,
/// the callback's id_token ignored) is correct: what it skips is advice, reported, never a failed run.
@Suite("siwa check: a correct app that verifies only the token response's id_token passes")
struct CorrectAppTests {
    @Test("token.hash and token.sub-mismatch are reported as advice; the run passes")
    func tokenResponseOnly() async throws {
        let results = try await BrokenAppTests.check(nil, identityTokens: .tokenResponseOnly)
        let failed = results.filter { $0.outcome == .failed }
        let report = CheckReport(results: results, seconds: 0)
        #expect(!report.failed, "\(failed.map { "\($0.check.rawValue): \($0.detail)" })")
        // The checks still see what the app skips: it is reported, not hidden.
        #expect(Set(failed.map(\.check)).isSuperset(of: [.tokenHash, .tokenSubjectMismatch]))
    }
}
