import Foundation

extension AppChecker {
    struct RequestFindings {
        var results: [CheckResult]
        var clientID: String?
    }

    /// Three starts in three browsers: what the app sends to /auth/authorize (spec §3.1).
    func checkRequest() async -> RequestFindings {
        var attempts: [SignInAttempt] = []
        do {
            for _ in 0..<3 { attempts.append(try await SignInAttempt.start(in: newBrowser(), options: options)) }
        } catch {
            let failed = CheckResult(.requestState, .failed, "\(error)")
            return RequestFindings(
                results: [failed]
                    + [CheckID.requestNonce, .requestFormPost, .requestRedirectURI, .requestPKCE, .requestScopes].map {
                        .notRun($0, because: .requestState)
                    })
        }
        let states = attempts.compactMap(\.state).filter { !$0.isEmpty }
        let nonces = attempts.compactMap(\.nonce).filter { !$0.isEmpty }
        var results: [CheckResult] = []
        if states.count < attempts.count {
            results.append(CheckResult(.requestState, .failed, "a start sent no state"))
        } else if Set(states).count < states.count {
            results.append(CheckResult(.requestState, .failed, "two starts sent the same state"))
        } else if let short = states.first(where: { $0.utf8.count < 16 }) {
            results.append(CheckResult(.requestState, .failed, "state \(short) is too short to be unpredictable (under 16 characters)"))
        } else {
            results.append(CheckResult(.requestState, .passed, "3 starts, 3 different states of \(states.map(\.utf8.count).min() ?? 0)+ characters"))
        }
        if nonces.count < attempts.count {
            results.append(CheckResult(.requestNonce, .failed, "a start sent no nonce"))
        } else if Set(nonces).count < nonces.count {
            results.append(CheckResult(.requestNonce, .failed, "two starts sent the same nonce"))
        } else {
            results.append(CheckResult(.requestNonce, .passed, "every start sent a different nonce"))
        }
        let first = attempts[0]
        let scopes = (first.request["scope"] ?? "").split(separator: " ").map(String.init)
        if !scopes.isEmpty && !first.usesFormPost {
            results.append(
                CheckResult(
                    .requestFormPost, .failed,
                    "scope \(scopes.joined(separator: " ")) asked with response_mode \(first.request["response_mode"] ?? "query")"))
        } else {
            results.append(
                CheckResult(
                    .requestFormPost, .passed, scopes.isEmpty ? "no name or e-mail asked" : "form_post with scope \(scopes.joined(separator: " "))"))
        }
        do {
            if options.registersReturnURL { try await admin.addReturnURL(first.redirectURI, for: first.clientID) }
            _ = try await admin.approve(first.request, as: options.victim)
            results.append(CheckResult(.requestRedirectURI, .passed, "\(first.redirectURI) is a registered Return URL"))
        } catch {
            results.append(CheckResult(.requestRedirectURI, .failed, "the server refused the request: \(error)"))
        }
        results.append(Self.pkceFinding(first.request))
        results.append(Self.scopesFinding(scopes))
        return RequestFindings(results: results, clientID: first.clientID.isEmpty ? nil : first.clientID)
    }

    /// Advice: PKCE with S256 (RFC 7636 §4.2: plain only when S256 cannot be computed).
    static func pkceFinding(_ request: [String: String]) -> CheckResult {
        guard request["code_challenge"] != nil else { return CheckResult(.requestPKCE, .failed, "no PKCE (code_challenge) in the request") }
        let method = request["code_challenge_method"] ?? "plain"
        return method == "S256"
            ? CheckResult(.requestPKCE, .passed, "PKCE with S256")
            : CheckResult(.requestPKCE, .failed, "PKCE with \(method), not S256")
    }

    /// Advice: Apple defines the scopes name and email (openid is tolerated, not documented).
    static func scopesFinding(_ scopes: [String]) -> CheckResult {
        let undefined = scopes.filter { $0 != "name" && $0 != "email" }
        if !undefined.isEmpty {
            return CheckResult(.requestScopes, .failed, "asks \(undefined.joined(separator: " ")), which Apple does not define")
        }
        return CheckResult(.requestScopes, .passed, scopes.isEmpty ? "no scopes asked" : "asks \(scopes.joined(separator: " "))")
    }

    /// The genuine sign-in: if it fails, nothing else can be judged, so the run says why, from the
    /// server's side when it can.
    func checkBaseline() async -> CheckResult {
        do {
            let (attempt, fields) = try await approvedAttempt(as: options.victim)
            let logBefore = try? await admin.requests(of: attempt.clientID)
            let page = try await attempt.callback(fields)
            let (signedIn, _) = try await isSignedIn(attempt.browser)
            guard signedIn else {
                let diagnosis = await diagnosis(clientID: attempt.clientID, logBefore: logBefore)
                return CheckResult(
                    .callbackBaseline, .failed,
                    "the genuine callback did not sign in: the app answered \(page.status) at \(page.url) \(page.body.prefix(200)); \(diagnosis)")
            }
            return CheckResult(.callbackBaseline, .passed, "the genuine callback signed in")
        } catch {
            return CheckResult(.callbackBaseline, .failed, "\(error)")
        }
    }

    /// Why the app's sign-in failed, as the server saw its /auth/token request (the request log).
    func diagnosis(clientID: String, logBefore: [ServerAdmin.LoggedRequest]?) async -> String {
        let generic = "check the Return URL, the client secret (Team ID, Key ID, key) and the clock"
        guard let logBefore, let log = try? await admin.requests(of: clientID) else { return generic }
        guard let newest = ServerAdmin.newEntries(log, since: logBefore).first(where: { $0.endpoint == "token" }) else {
            return "the server saw no /auth/token request from the app: it must redeem the code with its client secret"
        }
        guard newest.outcome != "ok" else {
            return "the server answered the app's /auth/token; the app refused the answer (check the issuer, client ID and clock it verifies with)"
        }
        let reason = "the server refused the app's /auth/token with \(newest.outcome): \(newest.reason)"
        return reason + "; " + Self.hint(outcome: newest.outcome, reason: newest.reason)
    }

    /// What to change for a refusal of the token request.
    static func hint(outcome: String, reason: String) -> String {
        let text = reason.lowercased()
        if text.contains("redirect_uri") { return "fix the Return URL: send the same redirect_uri as in the authorization request" }
        if text.contains("iat") || text.contains("exp") || text.contains("future") || text.contains("clock") {
            return "fix the clock: the client secret's iat and exp must bracket the server's time"
        }
        if outcome == "invalid_client" {
            return "fix the client secret: Team ID (iss), Key ID (kid), the key file, sub = client ID, aud = the issuer"
        }
        return "check the Return URL, the client secret (Team ID, Key ID, key) and the clock"
    }
}
