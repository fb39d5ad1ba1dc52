import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import SignInWithApple

/// `/playground`: a relying party built into the server on the demo Services ID. One click runs the
/// web flow; the callback page shows the fields, the token response, the verified id_token, and the
/// precise reason of any refusal (the diagnostic Apple never gives).
struct PlaygroundEndpoints {
    static let browserCookie = "siwa_playground"

    let provider: AppleIDProvider
    let renderer: PageRenderer
    let facts: DemoFacts
    let minter: ClientSecretMinter
    let redirectURI: String
    /// The pages' cookies (Secure and `__Host-` when the server is reached over HTTPS).
    let cookies: BrowserCookies
    var runs: PlaygroundRuns { PlaygroundRuns(provider: provider) }

    struct CallbackForm: Decodable {
        var code: String?
        var idToken: String?
        var state: String?
        var user: String?
        var error: String?
        enum CodingKeys: String, CodingKey {
            case code
            case idToken = "id_token"
            case state, user, error
        }
    }

    /// The refresh and revoke forms name the run, never the token.
    struct RunForm: Decodable {
        var run: String?
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/playground") { request, _ in
            let (browser, isNew) = browserID(in: request)
            let state = provider.random.hex(bytes: 16)
            let nonce = provider.random.hex(bytes: 16)
            try await runs.start(state: state, nonce: nonce, browser: browser, now: provider.clock.now())
            var response = try renderer.render(
                PlaygroundStart(
                    clientID: facts.servicesID.rawValue, redirectURI: redirectURI, state: state, nonce: nonce,
                    clockNotice: PlaygroundStart.clockNotice(offset: (provider.clock as? any AdjustableClock)?.offset ?? 0)),
                template: "playground")
            if isNew { response.setCookie(browserCookie(browser)) }
            return response
        }
        // form_post answers arrive as a POST; query answers (an error, or response_mode=query) as a GET.
        router.post("/playground/callback") { request, _ in
            try await callback(try await FormDecoding.decodePageForm(CallbackForm.self, from: request), request: request)
        }
        router.get("/playground/callback") { request, _ in
            let query = request.uri.queryParameters
            let form = CallbackForm(
                code: query["code"].map(String.init), idToken: query["id_token"].map(String.init), state: query["state"].map(String.init),
                user: query["user"].map(String.init), error: query["error"].map(String.init))
            return try await callback(form, request: request)
        }
        router.post("/playground/refresh") { request, _ in
            let form = try await FormDecoding.decodePageForm(RunForm.self, from: request)
            let browser = cookies.value(Self.browserCookie, in: request)
            var result = PlaygroundResult(action: "Refresh")
            guard let run = form.run, let browser,
                let refreshToken = try await runs.refreshToken(run: run, browser: browser, now: provider.clock.now())
            else {
                result.tokenError = .notThisBrowsersRun
                return try renderer.render(result, template: "playground_result", status: .forbidden)
            }
            try await exchange(
                TokenRequest(grantType: GrantType.refreshToken.rawValue, clientID: facts.servicesID.rawValue, refreshToken: refreshToken),
                nonce: nil, browser: browser, run: run, into: &result)
            return try renderer.render(result, template: "playground_result")
        }
        router.post("/playground/revoke") { request, _ in
            let form = try await FormDecoding.decodePageForm(RunForm.self, from: request)
            let browser = cookies.value(Self.browserCookie, in: request)
            var result = PlaygroundResult(action: "Revoke")
            guard let run = form.run, let refreshToken = try await runs.refreshToken(run: run, browser: browser, now: provider.clock.now()) else {
                result.tokenError = .notThisBrowsersRun
                return try renderer.render(result, template: "playground_result", status: .forbidden)
            }
            let secret = try await clientSecret()
            switch await provider.revoke(
                RevocationRequest(clientID: facts.servicesID.rawValue, clientSecret: secret, token: refreshToken, tokenTypeHint: "refresh_token")
            )
            {
            // The run stays known: a refresh after the revocation shows the server's refusal.
            case .success: result.revoked = true
            case .failure(let error): result.tokenError = .init(error)
            }
            return try renderer.render(result, template: "playground_result")
        }
    }

    /// Shows the callback's fields and, when its state is this browser's, redeems the code.
    private func callback(_ form: CallbackForm, request: Request) async throws -> Response {
        let browser = cookies.value(Self.browserCookie, in: request)
        var result = PlaygroundResult(action: "Callback")
        let received = [
            ("code", form.code), ("id_token", form.idToken), ("state", form.state), ("user", form.user), ("error", form.error),
        ]
        result.callback = PlaygroundResult.Callback(
            fields: received.compactMap { name, value in value.map { PlaygroundResult.Field(name: name, value: $0) } })
        if let error = form.error { result.callbackError = .init(error: error, state: form.state ?? "(none)") }
        var nonce: String?
        if let state = form.state { nonce = try await runs.takeNonce(state: state, browser: browser, now: provider.clock.now()) }
        result.stateCheck = nonce == nil ? .refused : .matched
        if let nonce, let code = form.code, let browser {
            try await exchange(
                TokenRequest(
                    grantType: GrantType.authorizationCode.rawValue, clientID: facts.servicesID.rawValue, code: code, redirectURI: redirectURI),
                nonce: nonce, browser: browser, into: &result)
        }
        return try renderer.render(result, template: "playground_result")
    }

    /// The browser's playground identity: its cookie, or a new one.
    private func browserID(in request: Request) -> (value: String, isNew: Bool) {
        if let value = cookies.value(Self.browserCookie, in: request), value.count == 64, value.allSatisfy(\.isHexDigit) { return (value, false) }
        return (provider.random.hex(bytes: 32), true)
    }

    private func browserCookie(_ value: String) -> Cookie {
        cookies.cookie(Self.browserCookie, value: value, path: "/playground")
    }

    private func clientSecret() async throws -> String {
        try await minter.mint(clientID: facts.servicesID, audience: provider.configuration.issuer, issuedAt: provider.clock.now(), lifetime: 300)
    }

    /// Redeems or refreshes, shows the answer, and keeps a new refresh token for this browser's run
    /// (`run`: the run being refreshed; a new run otherwise).
    private func exchange(
        _ request: TokenRequest, nonce: String?, browser: String, run: String? = nil, into result: inout PlaygroundResult
    ) async throws {
        var request = request
        do {
            request.clientSecret = try await clientSecret()
        } catch {
            result.tokenError = .init(error: "client secret", description: nil, reason: "\(error)")
            return
        }
        switch await provider.token(request) {
        case .failure(let error):
            result.tokenError = .init(error)
            if let run { try await runs.end(run: run) }
        case .success(let response):
            result.tokenResponse = PlaygroundResult.prettyJSON(response)
            if let refreshToken = response.refreshToken ?? request.refreshToken {
                let run = run ?? provider.random.hex(bytes: 16)
                try await runs.complete(refreshToken: refreshToken, browser: browser, run: run, now: provider.clock.now())
                result.run = run
            }
            if let idToken = response.idToken { await verify(idToken, nonce: nonce, into: &result) }
        }
    }

    /// Verifies the id_token with the relying-party kit's own verifier, as an app would: signature by
    /// `kid` against `/auth/keys`, then issuer, audience, times and nonce. A refusal shows the kit's
    /// explanation.
    private func verify(_ idToken: String, nonce: String?, into result: inout PlaygroundResult) async {
        if let jws = try? CompactJWS(idToken) {
            result.idTokenHeader = (try? jws.headerBytes()).map { PlaygroundResult.prettyJSON(bytes: $0) }
            result.idTokenClaims = (try? jws.payloadBytes()).map { PlaygroundResult.prettyJSON(bytes: $0) }
        }
        let clock = provider.clock
        let verifier = IdentityTokenVerifier(
            issuers: [provider.configuration.issuer], audiences: [facts.servicesID.rawValue],
            keys: AppleKeySet(jwksJSON: provider.keyRing.publishedKeySetJSON), clock: { clock.now() })
        do {
            let identity = try await verifier.verify(idToken, nonce: nonce.map { Nonce(raw: $0) })
            let secondsLeft = Int(identity.expiresAt.timeIntervalSince(clock.now()))
            var checks = ["signature verified with the key named by kid (RS256)", "iss is \(identity.issuer)", "aud is \(identity.audience)"]
            checks.append("not expired (exp in \(secondsLeft) s)")
            if nonce != nil { checks.append("nonce matches") }
            result.verification = .init(lines: checks)
        } catch {
            result.verification = .init(lines: ["verification FAILED: \(error)"])
        }
    }
}
