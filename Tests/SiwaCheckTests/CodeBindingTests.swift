import Testing

@testable import SiwaCheck

/// RFC 9700 §2.1.1: a client prevents authorization code injection with PKCE or with the OpenID
/// Connect nonce (OpenID Connect Core 1.0 §3.1.2.1 makes the nonce optional in the code flow). An app
/// whose code is bound by PKCE S256 and which refuses an injected code is correct without a nonce.
@Suite("siwa check: the nonce is required unless PKCE S256 binds the code")
struct CodeBindingTests {
    static func failures(_ results: [CheckResult]) -> String {
        "\(results.filter { $0.outcome == .failed }.map { "\($0.check.rawValue): \($0.detail)" })"
    }

    @Test("PKCE S256 without a nonce: request.nonce and token.nonce are advice, the run passes (fails with --strict)")
    func pkceWithoutNonce() async throws {
        let results = try await BrokenAppTests.check(nil, codeBinding: .pkceS256)
        let failed = Set(results.filter { $0.outcome == .failed }.map(\.check))
        #expect(failed == [.requestNonce, .tokenNonce], "\(Self.failures(results))")
        #expect(!CheckReport(results: results, seconds: 0).failed, "\(Self.failures(results))")
        #expect(CheckReport(results: results, seconds: 0, strict: true).failed)
        for check in [CheckID.requestNonce, .tokenNonce] {
            let result = try #require(results.first { $0.check == check })
            #expect(result.checkClass == .advice && result.detail.contains("PKCE (S256) binds the code"), "\(result)")
        }
    }

    @Test("the same app without PKCE: the nonce checks and code injection fail, the run fails")
    func neitherNonceNorPKCE() async throws {
        let results = try await BrokenAppTests.check(nil, codeBinding: .nothing)
        let failed = Set(results.filter { $0.outcome == .failed }.map(\.check))
        #expect(failed == [.requestNonce, .tokenNonce, .callbackCodeInjection, .requestPKCE], "\(Self.failures(results))")
        #expect(CheckReport(results: results, seconds: 0).failed)
        #expect(results.filter { $0.check == .requestNonce || $0.check == .tokenNonce }.allSatisfy { $0.checkClass == .required })
    }
}

/// The rule alone, on results as a run would give them.
@Suite("siwa check: the nonce-or-PKCE rule")
struct CodeBindingRuleTests {
    static func run(pkce: CheckResult.Outcome, injection: CheckResult.Outcome) -> [CheckResult] {
        CheckClassRules.apply(to: [
            CheckResult(.requestNonce, .failed, "a start sent no nonce"), CheckResult(.requestPKCE, pkce, "PKCE"),
            CheckResult(.callbackCodeInjection, injection, "injected code"), CheckResult(.tokenNonce, .failed, "wrong-nonce accepted"),
            CheckResult(.tokenAlgNone, .passed, "refused"),
        ])
    }

    @Test("PKCE S256 and a refused injected code lower the nonce checks to advice, with the reason in the detail")
    func lowered() throws {
        let results = Self.run(pkce: .passed, injection: .passed)
        let nonce = results.filter { CheckClassRules.nonceChecks.contains($0.check) }
        #expect(nonce.count == 2 && nonce.allSatisfy { $0.checkClass == .advice && $0.detail.contains("PKCE (S256) binds the code") })
        #expect(try #require(results.first { $0.check == .tokenAlgNone }).checkClass == .required)
        #expect(!CheckReport(results: results, seconds: 0).failed)
        #expect(CheckReport(results: results, seconds: 0, strict: true).failed)
        let json = try CheckReport(results: results, seconds: 0).json()
        #expect(json.contains(#""check" : "token.nonce","#) && json.contains(#""class" : "advice""#))
        #expect(CheckReport(results: results, seconds: 0).junit.contains(#"classname="siwa.check.advice" name="request.nonce""#))
    }

    @Test(
        "without PKCE S256, or with an injected code accepted, the nonce checks stay required",
        arguments: [(CheckResult.Outcome.failed, CheckResult.Outcome.passed), (.passed, .failed), (.notRun, .passed), (.passed, .notRun)])
    func kept(pkce: CheckResult.Outcome, injection: CheckResult.Outcome) {
        let results = Self.run(pkce: pkce, injection: injection)
        #expect(results.filter { CheckClassRules.nonceChecks.contains($0.check) }.allSatisfy { $0.checkClass == .required })
        #expect(CheckReport(results: results, seconds: 0).failed)
    }
}
