import Foundation

extension AppChecker {
    /// The fault the server arms for each token check (TokenFault's raw values in the engine).
    static let tokenFaults: [CheckID: String] = [
        .tokenUnpublishedKey: "unpublished-key", .tokenAlgNone: "alg-none", .tokenHS256: "hs256", .tokenWrongAudience: "wrong-aud",
        .tokenWrongIssuer: "wrong-iss", .tokenExpired: "expired", .tokenFutureIssuedAt: "future-iat", .tokenNonce: "wrong-nonce",
        .tokenHash: "wrong-at-hash", .tokenSubjectMismatch: "sub-mismatch", .tokenInvalidGrant: "invalid-grant",
        .tokenServerError: "server-error", .tokenTimeout: "timeout",
    ]

    func run(_ check: CheckID, clientID: String) async -> CheckResult {
        do {
            // token.nonce tries a missing nonce too: an app that compares only when one is present fails it.
            if check == .tokenNonce {
                let wrong = try await tokenFault(check, fault: "wrong-nonce", clientID: clientID)
                return wrong.outcome == .failed ? wrong : try await tokenFault(check, fault: "missing-nonce", clientID: clientID)
            }
            if let fault = Self.tokenFaults[check] { return try await tokenFault(check, fault: fault, clientID: clientID) }
            switch check {
            case .callbackReplay: return try await replay()
            case .callbackState: return try await missingOrWrongState()
            case .callbackStateBound: return try await otherBrowsersState()
            case .callbackFormIdentityToken: return try await formIdentityToken()
            case .callbackCodeInjection: return try await codeInjection()
            case .callbackErrorHandled: return try await errorCallback()
            case .trustUserEmail: return try await forgedUserEmail()
            case .trustStringBooleans: return try await stringBooleans(clientID: clientID)
            case .trustManagedAccount: return try await managedAccount(clientID: clientID)
            default: return CheckResult(check, .notRun, "not run")
            }
        } catch {
            return CheckResult(check, .failed, "the check could not complete: \(error)")
        }
    }

    /// `passed` when `browser` is not signed in after `attack`.
    func refused(_ check: CheckID, _ browser: SimulatedBrowser, accepted: String, refused: String) async throws -> CheckResult {
        let (signedIn, _) = try await isSignedIn(browser)
        return signedIn ? CheckResult(check, .failed, accepted) : CheckResult(check, .passed, refused)
    }

    /// The genuine callback, posted again in a browser that never started a sign-in. (A copy of the
    /// first browser's cookies would share its signed-in session, so the replay goes elsewhere.)
    func replay() async throws -> CheckResult {
        let (attempt, fields) = try await approvedAttempt(as: options.victim)
        _ = try await attempt.callback(fields)
        guard try await isSignedIn(attempt.browser).0 else {
            return CheckResult(.callbackReplay, .notRun, "not run: the first callback did not sign in")
        }
        let other = newBrowser()
        _ = try await attempt.callback(fields, in: other)
        return try await refused(
            .callbackReplay, other, accepted: "the same callback, posted again in another browser, signed it in",
            refused: "a replayed callback was refused")
    }

    func missingOrWrongState() async throws -> CheckResult {
        let (missing, fields) = try await approvedAttempt(as: options.victim)
        _ = try await missing.callback(fields.filter { $0.0 != "state" })
        if try await isSignedIn(missing.browser).0 { return CheckResult(.callbackState, .failed, "a callback without state signed in") }
        let (wrong, other) = try await approvedAttempt(as: options.victim)
        _ = try await wrong.callback(other.map { $0.0 == "state" ? ($0.0, "forged-\(UUID().uuidString)") : $0 })
        return try await refused(
            .callbackState, wrong.browser, accepted: "a callback with a state the app never sent signed in",
            refused: "callbacks without state and with a wrong state were refused")
    }

    /// Login CSRF: the attacker's complete callback delivered to the victim's browser.
    func otherBrowsersState() async throws -> CheckResult {
        let victim = try await SignInAttempt.start(in: newBrowser(), options: options)
        let (_, attackers) = try await approvedAttempt(as: options.attacker)
        _ = try await victim.callback(attackers)
        return try await refused(
            .callbackStateBound, victim.browser, accepted: "the attacker's callback (with the attacker's own state) signed in the victim's browser",
            refused: "another browser's state was refused")
    }

    /// An unsigned id_token in the form: first with a code the server never issued, then beside a
    /// genuine code (an app that redeems the code and then takes the user from the form's token).
    func formIdentityToken() async throws -> CheckResult {
        let attempt = try await SignInAttempt.start(in: newBrowser(), options: options)
        let forged = ForgedIdentityToken.unsigned(
            issuer: options.server, audience: attempt.clientID, nonce: attempt.nonce, email: ForgedIdentityToken.email)
        _ = try await attempt.callback([("code", "forged-code"), ("id_token", forged), ("state", attempt.state ?? "")])
        if try await isSignedIn(attempt.browser).0 {
            return CheckResult(
                .callbackFormIdentityToken, .failed, "an unsigned id_token in the form, with a code the server never issued, signed in")
        }
        let (genuine, fields) = try await approvedAttempt(as: options.victim)
        let beside = ForgedIdentityToken.unsigned(
            issuer: options.server, audience: genuine.clientID, nonce: genuine.nonce, email: ForgedIdentityToken.email)
        _ = try await genuine.callback(fields.filter { $0.0 != "id_token" } + [("id_token", beside)])
        let (signedIn, body) = try await isSignedIn(genuine.browser)
        if signedIn && (body.contains(ForgedIdentityToken.subject) || body.contains(ForgedIdentityToken.email)) {
            return CheckResult(
                .callbackFormIdentityToken, .failed, "beside a genuine code, an unsigned id_token in the form named the signed-in user")
        }
        return CheckResult(.callbackFormIdentityToken, .passed, "a forged id_token in the form was not trusted, alone or beside a genuine code")
    }

    /// The attacker's code in the victim's callback, with the victim's state.
    func codeInjection() async throws -> CheckResult {
        let victim = try await SignInAttempt.start(in: newBrowser(), options: options)
        let (_, attackers) = try await approvedAttempt(as: options.attacker)
        let code = attackers.first { $0.0 == "code" }?.1 ?? ""
        _ = try await victim.callback([("code", code), ("state", victim.state ?? "")])
        return try await refused(
            .callbackCodeInjection, victim.browser, accepted: "the attacker's code, injected with the victim's state, signed the victim's browser in",
            refused: "an injected code was refused (nonce or PKCE)")
    }

    func errorCallback() async throws -> CheckResult {
        let attempt = try await SignInAttempt.start(in: newBrowser(), options: options)
        let page = try await attempt.callback([("error", "user_cancelled_authorize"), ("state", attempt.state ?? "")])
        if page.status >= 500 { return CheckResult(.callbackErrorHandled, .failed, "the error callback was answered \(page.status)") }
        return try await refused(
            .callbackErrorHandled, attempt.browser, accepted: "an error callback signed in", refused: "answered \(page.status), not signed in")
    }

    func tokenFault(_ check: CheckID, fault: String, clientID: String) async throws -> CheckResult {
        let (attempt, fields) = try await approvedAttempt(as: options.victim)
        let delay = check == .tokenTimeout ? options.timeoutDelay : nil
        try await admin.arm(fault, for: clientID, delaySeconds: delay)
        let page: SimulatedBrowser.Page
        do {
            page = try await attempt.callback(fields, timeout: delay.map { $0 + options.requestTimeout })
        } catch {
            try? await admin.disarm(clientID)
            throw error
        }
        // An app that never called /auth/token leaves the fault armed: it must not spoil the next check.
        try? await admin.disarm(clientID)
        if page.status >= 500 && check != .tokenServerError && check != .tokenTimeout {
            // A 5xx fails closed, but it is worth saying.
            return try await refused(check, attempt.browser, accepted: "signed in", refused: "refused, with a \(page.status) page")
        }
        return try await refused(
            check, attempt.browser, accepted: "the app signed in with a token response whose fault was \(fault)",
            refused: "the \(fault) answer was refused")
    }

    func forgedUserEmail() async throws -> CheckResult {
        let (attempt, fields) = try await approvedAttempt(as: options.victim)
        let forged = "forged-\(UUID().uuidString.prefix(8).lowercased())@attacker.example"
        let user = #"{"name":{"firstName":"Eve","lastName":"Forged"},"email":"\#(forged)"}"#
        _ = try await attempt.callback(fields.filter { $0.0 != "user" } + [("user", user)])
        let (signedIn, body) = try await isSignedIn(attempt.browser)
        guard signedIn else { return CheckResult(.trustUserEmail, .notRun, "not run: the sign-in with a user field did not sign in") }
        return body.contains(forged)
            ? CheckResult(.trustUserEmail, .failed, "the user field's e-mail \(forged) became the account's e-mail")
            : CheckResult(.trustUserEmail, .passed, "the forged e-mail of the user field was not shown by the probe")
    }

    /// The sign-in with `email_verified` and `is_private_email` as strings, as Apple wrote them before
    /// 2024-02-07; the client is put back as it was (`drift.boolean-claims` reads this result).
    func stringBooleans(clientID: String) async throws -> CheckResult {
        let signedIn = try await withStringBooleans(clientID: clientID) { try await signsIn() }
        return signedIn
            ? CheckResult(.trustStringBooleans, .passed, "signed in with email_verified and is_private_email as strings")
            : CheckResult(.trustStringBooleans, .failed, "with email_verified as \"true\" (a string) the sign-in failed")
    }
}
