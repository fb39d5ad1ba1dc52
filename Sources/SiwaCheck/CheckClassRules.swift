/// Where the class of a result is decided: the check's own class (`CheckID+Rationale.swift`), unless a
/// rule below lowers it (reading the whole run) or raises a drift check (reading its own sides). One
/// place, so the table, `--json`, `--junit` and the exit status agree.
public enum CheckClassRules {
    /// A drift check signs in with Apple's traffic before and after a change. Failing only on the side
    /// Apple no longer sends (or not yet) is advice; failing on today's side means the app breaks on
    /// today's traffic: required.
    static func drift(_ check: CheckID, failedToday detail: String) -> CheckResult {
        var result = CheckResult(check, .failed, detail + "; required: this is Apple's traffic today")
        result.checkClass = .required
        return result
    }

    /// RFC 9700 §2.1.1 (and §4.5.3): a client prevents authorization code injection with PKCE or with
    /// the OpenID Connect nonce; OpenID Connect Core 1.0 §3.1.2.1 makes the nonce optional in the code
    /// flow, and Apple enforces a code_challenge that was sent. So the nonce checks are advice when
    /// the request used PKCE with S256 (`request.pkce` passed) and an injected code was refused
    /// (`callback.code-injection` passed); otherwise they stay required.
    static let nonceChecks: Set<CheckID> = [.requestNonce, .tokenNonce]

    /// The README's words for the condition, after the class: "required unless …".
    public static func condition(of check: CheckID) -> String? {
        nonceChecks.contains(check) ? "unless PKCE S256 binds the code (RFC 9700 §2.1.1)" : nil
    }

    /// `results` with each result's class decided; a lowered failure says why in its detail.
    public static func apply(to results: [CheckResult]) -> [CheckResult] {
        func passed(_ check: CheckID) -> Bool { results.contains { $0.check == check && $0.outcome == .passed } }
        guard passed(.requestPKCE), passed(.callbackCodeInjection) else { return results }
        return results.map { result in
            guard nonceChecks.contains(result.check), result.checkClass == .required else { return result }
            var lowered = result
            lowered.checkClass = .advice
            if result.outcome == .failed {
                lowered.detail += "; advice: PKCE (S256) binds the code to the browser and an injected code was refused (RFC 9700 §2.1.1)"
            }
            return lowered
        }
    }
}
