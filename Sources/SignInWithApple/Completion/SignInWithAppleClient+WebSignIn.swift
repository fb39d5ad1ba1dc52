import AppleIDProtocol
import Foundation

/// The web sign-in, bound to the browser that started it.
///
/// Apple's `form_post` callback is a cross-site POST, on which browsers drop `SameSite=Lax`
/// cookies: it can prove which sign-in it answers (the single-use `state`) but not which browser it
/// runs in. So it happens in two steps, and nothing signs in before the second:
///
/// 1. ``startSignIn(scopes:browser:)`` keeps the sign-in under its `state` with the hash of the
///    browser's ``BrowserBinding``, whose secret your start response sets as a cookie.
/// 2. ``acceptCallback(_:)`` (the callback) verifies the front-channel id_token, exchanges the code,
///    verifies the token endpoint's id_token, and parks the result under a single-use link token.
///    Send the browser on, with a 303, to your completion URL with that token.
/// 3. ``finishSignIn(completionToken:browser:)`` (a same-site GET, which carries the cookie) hands
///    the result over only to the browser that started it, once.
///
/// `SignInWithAppleRoutes` (Hummingbird) and `SignInWithAppleRouteCollection` (Vapor) do all three.
extension SignInWithAppleClient {
    /// Starts a web sign-in for `browser`: remembers state, nonce and PKCE verifier (sealed), and
    /// returns the URL to redirect to.
    public func startSignIn(scopes: [Scope]? = nil, browser: BrowserBinding) async throws -> PendingAuthorization {
        guard let web = configuration.web else { throw ConfigurationError.noWebSignIn }
        let pending = requests.makeRequest(redirectURI: web.redirectURI, scopes: scopes ?? configuration.scopes)
        try await remember(pending, browser: browser)
        return pending
    }

    /// Starts a web sign-in that Sign in with Apple JS runs in your page, for `browser`: remembers
    /// state and nonce (sealed) as ``startSignIn(scopes:browser:)`` does, without PKCE (the script
    /// sends none), and returns what the page passes to `AppleID.auth.init`.
    ///
    /// In popup mode the script hands the authorization to the page; post it to your server (same
    /// origin, so the binding cookie comes along) and finish with ``completeSignIn(_:browser:)``. In
    /// redirect mode Apple posts it to your callback, as for ``startSignIn(scopes:browser:)``.
    public func startScriptSignIn(
        scopes: [Scope]? = nil, usePopup: Bool = true, locale: String = "en_US", browser: BrowserBinding
    ) async throws -> ScriptSignIn {
        guard let web = configuration.web else { throw ConfigurationError.noWebSignIn }
        let chosen = scopes ?? configuration.scopes
        let pending = requests.makeRequest(
            redirectURI: web.redirectURI, scopes: chosen, responseMode: usePopup ? .webMessage : .formPost, usePKCE: false)
        try await remember(pending, browser: browser)
        return ScriptSignIn(
            clientID: requests.clientID, scope: Scope.join(chosen), redirectURI: pending.redirectURI, state: pending.state,
            nonce: pending.nonce.transmittedValue, usePopup: usePopup, scriptURL: requests.environment.scriptURL(locale: locale))
    }

    /// Keeps `pending` (sealed) under its state, with the hash of the browser that started it.
    private func remember(_ pending: PendingAuthorization, browser: BrowserBinding) async throws {
        let started = StartedSignIn(pending: pending, browserHash: browser.hash)
        let now = clock()
        let inserted = try await storage.insert(
            try SealedEntry.seal(started, kind: .started, secret: pending.state), forKey: SealedEntry.key(.started, secret: pending.state),
            expiresAt: now.addingTimeInterval(configuration.stateLifetime), now: now)
        guard inserted else { throw CallbackError.malformed("a state collided with a live one") }
    }

    /// The callback, step 2: verifies it and parks the result for the browser that started it.
    /// - Returns: The token for your completion URL (`?token=…`): single use, valid for
    ///   ``Configuration/completionLifetime``.
    public func acceptCallback(_ callback: AuthorizationCallback) async throws -> String {
        let (result, browserHash) = try await redeem(callback)
        let token = AuthorizationRequestBuilder.randomToken()
        let parked = ParkedSignIn(result, browserHash: browserHash)
        let now = clock()
        do {
            _ = try await storage.insert(
                try SealedEntry.seal(parked, kind: .completion, secret: token), forKey: SealedEntry.key(.completion, secret: token),
                expiresAt: now.addingTimeInterval(configuration.completionLifetime), now: now)
        } catch {
            await giveBack(result.tokens, clientID: result.identity.audience)
            throw error
        }
        return token
    }

    /// ``acceptCallback(_:)`` for the raw `form_post` body.
    public func acceptCallback(formBody: [UInt8]) async throws -> String {
        try await acceptCallback(try AuthorizationCallback(formEncoded: String(decoding: formBody, as: UTF8.self)))
    }

    /// Step 3: the verified sign-in of `completionToken`, if `browser` started it. Single use. A
    /// completion refused (another browser, expired) is revoked at Apple, which also makes the
    /// person's next sign-in a first authorization again, so the name is not lost.
    public func finishSignIn(completionToken: String, browser: BrowserBinding?) async throws -> SignInResult {
        guard !completionToken.isEmpty, let entry = try await storage.take(SealedEntry.key(.completion, secret: completionToken)),
            let parked = try? SealedEntry.open(ParkedSignIn.self, from: entry.value, kind: .completion, secret: completionToken)
        else { throw CallbackError.unknownCompletion }
        let result = try parked.result()
        guard entry.expiresAt > clock() else {
            await giveBack(result.tokens, clientID: result.identity.audience)
            throw CallbackError.unknownCompletion
        }
        guard let browser, browser.matches(parked.browserHash) else {
            await giveBack(result.tokens, clientID: result.identity.audience)
            throw CallbackError.otherBrowser
        }
        return result
    }

    /// Both steps at once, for a callback that arrives in a request carrying the browser's cookie
    /// (a same-site `query` response, or your own binding): checks the state and the browser,
    /// verifies and exchanges.
    ///
    /// A request without the binding (`browser` is `nil`: a cross-site post, or cookies blocked) is
    /// refused as another browser's, and what its code issues is revoked.
    public func completeSignIn(_ callback: AuthorizationCallback, browser: BrowserBinding?) async throws -> SignInResult {
        let (result, browserHash) = try await redeem(callback, onlyFor: .some(browser))
        guard let browser, browser.matches(browserHash) else {
            await giveBack(result.tokens, clientID: result.identity.audience)
            throw CallbackError.otherBrowser
        }
        return result
    }

    /// Checks the state (single use), verifies the front-channel id_token when present, exchanges
    /// the code, verifies the token endpoint's id_token. With `browser`, refuses another browser's
    /// sign-in, and revokes what its code issues.
    ///
    /// - Parameter onlyFor: `nil`: any browser (the cookieless `form_post` callback; the browser is
    ///   checked at the completion). Otherwise only the browser it holds; `.some(nil)`, no browser, matches none.
    func redeem(_ callback: AuthorizationCallback, onlyFor required: BrowserBinding?? = nil) async throws -> (SignInResult, browserHash: String) {
        if let error = callback.error { throw CallbackError.apple(error) }
        guard let state = callback.state, !state.isEmpty, let entry = try await storage.take(SealedEntry.key(.started, secret: state)),
            entry.expiresAt > clock(), let started = try? SealedEntry.open(StartedSignIn.self, from: entry.value, kind: .started, secret: state)
        else { throw CallbackError.unknownState }
        let pending = started.pending
        guard let code = callback.code, !code.isEmpty else { throw CallbackError.missingCode }
        if case .some(let browser) = required, browser?.matches(started.browserHash) != true {
            // Nothing signs in; what the code issues is revoked at once, so that the person's next
            // sign-in is a first authorization again and the name Apple sent is not lost.
            if let issued = try? await tokens.exchange(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier) {
                await giveBack(issued, clientID: tokens.clientID)
            }
            throw CallbackError.otherBrowser
        }
        var frontChannel: VerifiedIdentityToken?
        if let idToken = callback.idToken {
            do {
                frontChannel = try await identityTokens.verify(idToken, nonce: pending.nonce, authorizationCode: code)
            } catch let error as IdentityTokenError {
                let issued = try? await tokens.exchange(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier)
                if let issued { await giveBack(issued, clientID: tokens.clientID) }
                throw error
            }
        }
        let response = try await tokens.exchange(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier)
        do {
            guard let idToken = response.idToken else {
                throw AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")
            }
            let identity = try await identityTokens.verify(idToken, nonce: pending.nonce, accessToken: response.accessToken)
            if let frontChannel, frontChannel.subject != identity.subject {
                throw CallbackError.subjectMismatch
            }
            let profile = callback.user.map { FirstAuthorizationProfile($0, verifiedEmail: identity.email) }
            return (SignInResult(identity: identity, profile: profile, tokens: response, state: state), started.browserHash)
        } catch {
            await giveBack(response, clientID: tokens.clientID)
            throw error
        }
    }

    /// A sign-in that fails after Apple authorized it (a token that does not verify, clocks that
    /// disagree, a completion in another browser) would otherwise use up the user's first
    /// authorization: the name Apple sent is dropped with the failure and never comes again.
    /// Revoking what the code issued makes the retry a first authorization again. Best effort.
    func giveBack(_ response: TokenResponse, clientID: String) async {
        guard let client = try? tokens(for: clientID) else { return }
        if let refreshToken = response.refreshToken {
            try? await client.revoke(token: refreshToken, hint: .refreshToken)
        } else {
            try? await client.revoke(token: response.accessToken, hint: .accessToken)
        }
    }
}

/// A started sign-in, as kept (sealed) under its state.
struct StartedSignIn: Codable, Sendable {
    var pending: PendingAuthorization
    var browserHash: String
}
