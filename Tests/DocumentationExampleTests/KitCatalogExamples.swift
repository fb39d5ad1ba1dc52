// swift-format-ignore-file
// The examples are the documentation's text, verbatim: formatting them would part them from it.
import AppleIDProtocol   // DemoFacts: the demo.json that siwa serve writes
import Foundation
import Logging
import SignInWithApple

// SignInWithApple.docc and the README's kit section, verbatim. They are fragments of an app: each
// compiles here inside a function that declares what the fragment takes from its surroundings
// (the app's accounts and sessions are the stand-ins in AppStandIns.swift).

func chooseEnvironment(production: Bool) -> AppleEnvironment {
    let environment: AppleEnvironment = production ? .production : .custom(baseURL: "http://127.0.0.1:8080")
    return environment
}

func makeClient(environment: AppleEnvironment, p8: String) throws -> SignInWithAppleClient {
    let siwa = try SignInWithAppleClient(
        configuration: .init(
            environment: environment,
            credentials: AppleCredentials(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: p8),
            primaryAppID: "com.example.app",
            web: .init(servicesID: "com.example.app.web", redirectURI: "https://example.com/auth/apple/callback")),
        storage: MemorySignInWithAppleStorage())  // one process; several instances share a store (below)
    return siwa
}

func webSignIn(siwa: SignInWithAppleClient, body: [UInt8], cookie: String) async throws -> SignInResult {
    // 1. Start: bind to the browser (a new secret at every start, kept in a cookie, HttpOnly, SameSite=Lax).
    let browser = BrowserBinding.random()      // set-cookie: \(siwa.browserCookieName)=\(browser.secret)
    let pending = try await siwa.startSignIn(browser: browser)   // redirect the browser to pending.url
    // 2. The form_post callback: verify, exchange, park. Redirect (303) to your completion URL.
    let token = try await siwa.acceptCallback(formBody: body)   // location: /auth/apple/complete?token=…
    // 3. The completion, a same-site GET that carries the cookie:
    let result = try await siwa.finishSignIn(completionToken: token, browser: try BrowserBinding(secret: cookie))
    result.identity.subject        // the account key
    result.identity.email          // the verified e-mail (never the unsigned form field's)
    result.profile?.name           // the name: first authorization only — store it now
    result.grant                   // keep it: refresh, the daily check and revocation take it
    _ = pending
    return result
}

func scriptSignIn(siwa: SignInWithAppleClient, browser: BrowserBinding, body: String, bindingFromCookie: BrowserBinding?) async throws
    -> SignInResult
{
    let script = try await siwa.startScriptSignIn(browser: browser)   // popup mode; usePopup: false redirects
    script.scriptURL        // appleid.auth.js from Apple's CDN, or from the Apple ID server at the same path
    script.initOptionsJSON  // AppleID.auth.init's argument, safe inside a <script> element
    // The page posts the popup's authorization (code, id_token, state, user) to your server, same-origin:
    let result = try await siwa.completeSignIn(AuthorizationCallback(formEncoded: body), browser: bindingFromCookie)
    return result
}

func nativeSignIn(siwa: SignInWithAppleClient, body: NativeSignInBody, session: NativeSession) async throws -> SignInResult {
    let result = try await siwa.completeNativeSignIn(
        identityToken: body.identityToken, authorizationCode: body.authorizationCode,
        rawNonce: session.rawNonce, user: body.fullName)
    return result
}

func dailyCheck(siwa: SignInWithAppleClient, account: Account, accounts: Accounts) async throws {
    switch try await siwa.validate(account.grant) {   // Apple's check: at most once a day per grant
    case .valid(let identity): assert(identity.subject == account.subject)
    case .revoked: try await accounts.signOut(account)   // the user stopped using Sign in with Apple
    case .notDue: break
    }
    try await siwa.revoke(account.grant)               // when the user deletes their account
}

func handle(event: NotificationEvent, sessions: Sessions) async throws {
    switch event.type {
    case .consentRevoked:
        try await sessions.end(forSubject: event.subject, where: { event.appliesToSignIn(begunAt: $0.startedAt) })
    default: break
    }
}

func makeKeySet() -> AppleKeySet {
    let keys = AppleKeySet(environment: .production, transport: AsyncHTTPClientTransport(), maximumAge: 86_400, withdrawalGracePeriod: 3_600)
    return keys
}

func exchange(siwa: SignInWithAppleClient, code: String, redirectURI: String, logger: Logger) async throws {
    do {
        let tokens = try await siwa.tokens.exchange(code: code, redirectURI: redirectURI)
    } catch let error as AppleServiceError where error.kind == .refused {
        logger.error("Apple refused the code exchange", metadata: ["refusal": "\(error)"])
        // Apple refused the request (400): invalid_grant — The code has expired or has been revoked.
        // Likely causes:
        //   - the code expired or was already used: codes are single-use and live 5 minutes; …
        for cause in error.refusal?.likelyCauses ?? [] { print(cause) }
    }
}

func checkKey(environment: [String: String]) throws {
    let credentials = AppleCredentials(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: environment["APPLE_P8"] ?? "")
    do {
        _ = try credentials.signingKey()
    } catch let error as PrivateKeyError {
        fatalError("APPLE_P8: \(error)")  // stop at start-up because no sign-in works without the key; the error names the mistake
    }
}

func verifyNonce(siwa: SignInWithAppleClient, token: String, rawNonce: String) async throws {
    do {
        _ = try await siwa.identityTokens.verify(token, nonce: Nonce(raw: rawNonce))
    } catch IdentityTokenError.nonceConventionMismatch(expected: .plain) {
        // The app sent SHA-256(rawNonce), as native apps do: verify with Nonce(raw: rawNonce, convention: .sha256).
    }
}

func readmeQuickStart(body: [UInt8]) async throws {
    // The one switch: the local server while APPLE_ID_SERVER is set (http://127.0.0.1:8080), else the real
    // Apple (then with your real team, key and identifiers instead of the demo's).
    let server = ProcessInfo.processInfo.environment["APPLE_ID_SERVER"]
    let demo = try DemoFacts.read(fromDataDirectory: URL(filePath: ".siwa"))!   // nil until siwa serve has run
    let siwa = try SignInWithAppleClient(configuration: .init(
        environment: server.map { .custom(baseURL: $0) } ?? .production,
        credentials: AppleCredentials(teamID: demo.teamID.rawValue, keyID: demo.keyID.rawValue,
                                      privateKeyPEM: try String(contentsOfFile: demo.keyFile, encoding: .utf8)),
        primaryAppID: demo.bundleID.rawValue,
        web: .init(servicesID: demo.servicesID.rawValue, redirectURI: "http://127.0.0.1:3000/auth/apple/callback")))

    let browser = BrowserBinding.random()                        // 1. set it as a SameSite=Lax cookie, then
    let pending = try await siwa.startSignIn(browser: browser)   //    redirect the browser to pending.url
    let token = try await siwa.acceptCallback(formBody: body)    // 2. the form_post callback: 303 to /complete?token=…
    let result = try await siwa.finishSignIn(completionToken: token, browser: browser)  // 3. that GET, with the cookie
    print(result.identity.subject, result.identity.email ?? "")  // verified: signature, iss, aud, exp, nonce
    let grant = result.grant!                                    // store it with the account
    if case .revoked = try await siwa.validate(grant) { /* sign out */ }   // Apple's daily check, at most once a day
    try await siwa.revoke(grant)                                 // when the account is deleted
    _ = pending
}
