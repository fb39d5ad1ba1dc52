import AppleIDProtocol
import AsyncHTTPClient
import Foundation
import Hummingbird
import JWTKit
import NIOCore
import Synchronization

/// A relying party written as a typical tutorial writes one (session cookie, state and nonce in the
/// session, code exchanged with a client secret, id_token verified against /auth/keys), with one
/// flaw switched on at a time: the apps `siwa check` must catch.
final class TutorialApp: Sendable {
    enum Flaw: String, Sendable, CaseIterable {
        case noStateCheck, stateNotBound, formTokenTrusted, audienceNotChecked, expiredAccepted, nonceIgnored, nonceOptional, algNoneAccepted
        case userEmailTrusted, replayable, notificationsUnverified, neverRevokesOnDelete, requiresVerifiedEmail
        /// Deleting an account leaves its row in the table of e-mails, whose column is unique (TN3194).
        case emailKeptOnDelete
        /// The key set of /auth/keys is fetched once and kept (`drift.key-rotation`).
        case keysCachedForever
        /// The expected `iss` is the discovery document's `issuer` (`drift.issuer-flip`).
        case issuerFromDiscovery
        /// A private e-mail outside `privaterelay.appleid.com` is refused (`drift.relay-domain`).
        case relayDomainHardcoded
        /// Only `account-delete` deletes the account, not `account-deleted` (`drift.deletion-spelling`).
        case deletionSpelledOneWay
        /// A notification already handled (its `jti` seen) is answered 400 (`drift.notification-redelivery`).
        case redeliveryRefused
    }

    /// Which id_tokens the app verifies: not a flaw, two ways of being right (issue 37).
    enum IdentityTokens: Sendable {
        /// The token response's and the callback's, with at_hash, and their `sub`s compared.
        case both
        /// Only the token response's, without at_hash; the callback's is ignored (OpenID Connect
        /// Core 1.0 §3.3.3.8: the client MAY check at_hash there).
        case tokenResponseOnly
    }

    /// What binds the code to the browser that started: the nonce (the tutorial's way), PKCE with
    /// S256 and no nonce (RFC 9700 §2.1.1 allows either), or nothing.
    enum CodeBinding: Sendable {
        case nonce, pkceS256, nothing
    }

    struct Session: Sendable {
        var state: String?
        var nonce: String?
        var codeVerifier: String?
        var subject: String?
        var email: String?
        /// Kept to revoke on account deletion.
        var refreshToken: String?
    }

    struct Settings: Sendable {
        var server: String
        var clientID: String
        /// The app group's primary App ID: the `aud` of its notifications.
        var primaryAppID: String
        var teamID: String
        var keyID: String
        var privateKeyPEM: String
        /// The token request's deadline: shorter than the fault switch's silence in `token.timeout`.
        var tokenTimeout: TimeAmount = .seconds(5)
    }

    let flaw: Flaw?
    let identityTokens: IdentityTokens
    let codeBinding: CodeBinding
    let settings: Settings

    init(flaw: Flaw?, identityTokens: IdentityTokens = .both, codeBinding: CodeBinding = .nonce, settings: Settings) {
        self.flaw = flaw
        self.identityTokens = identityTokens
        self.codeBinding = codeBinding
        self.settings = settings
    }
    let port = Mutex<Int>(0)
    let sessions = Mutex<[String: Session]>([:])
    /// `stateNotBound`: pending sign-ins by state, shared by every browser.
    let pendingByState = Mutex<[String: String]>([:])
    /// The `jti` of each notification handled.
    let seenNotifications = Mutex<Set<String>>([])
    /// `replayable`: what each code signed in, served again for the same code.
    let signedInByCode = Mutex<[String: Session]>([:])
    /// The accounts: `sub` → the e-mail of its row in the table of e-mails, a unique column.
    let accounts = Mutex<[String: String]>([:])
    let accountEmails = Mutex<Set<String>>([])
    /// `keysCachedForever`: the first key set fetched.
    let cachedKeySet = Mutex<String?>(nil)

    var redirectURI: String { "http://127.0.0.1:\(port.withLock { $0 })/callback" }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/login") { request, _ in try self.login(request) }
        router.get("/login-js") { request, _ in try self.login(request, script: request.uri.query == "init" ? .initOptions : .metaTags) }
        router.post("/callback") { request, context in try await self.callback(request, context: context) }
        router.get("/me") { request, _ in
            guard let session = self.session(of: request), let subject = session.subject else { return Response(status: .unauthorized) }
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: "signed in as \(subject) \(session.email ?? "")")))
        }
        router.post("/notifications") { request, _ in try await self.notification(request) }
        router.post("/delete") { request, _ in try await self.deleteAccount(request) }
        return router
    }

    func session(of request: Request) -> Session? {
        request.cookies["sid"].flatMap { cookie in sessions.withLock { $0[cookie.value] } }
    }

    /// How a start page configures Sign in with Apple JS instead of redirecting.
    enum ScriptStyle { case metaTags, initOptions }

    private func login(_ request: Request, script: ScriptStyle? = nil) throws -> Response {
        let sid = request.cookies["sid"]?.value ?? Self.random()
        let state = Self.random()
        let nonce = Self.random()
        let verifier = Self.random() + Self.random()
        sessions.withLock {
            $0[sid, default: Session()].state = state
            $0[sid, default: Session()].nonce = nonce
            $0[sid, default: Session()].codeVerifier = verifier
        }
        if flaw == .stateNotBound { pendingByState.withLock { $0[state] = nonce } }
        var components = URLComponents(string: settings.server + "/auth/authorize")!
        components.queryItems = [
            .init(name: "client_id", value: settings.clientID), .init(name: "redirect_uri", value: redirectURI),
            .init(name: "response_type", value: "code id_token"), .init(name: "response_mode", value: "form_post"),
            .init(name: "scope", value: "name email"), .init(name: "state", value: state),
        ]
        switch codeBinding {
        case .nonce: components.queryItems?.append(.init(name: "nonce", value: nonce))
        case .pkceS256:
            components.queryItems? += [
                .init(name: "code_challenge", value: TokenHash.pkceChallenge(forVerifier: verifier)),
                .init(name: "code_challenge_method", value: "S256"),
            ]
        case .nothing: break
        }
        var response =
            script.map { Self.scriptPage($0, settings: settings, redirectURI: redirectURI, state: state, nonce: nonce) }
            ?? Response(status: .found, headers: [.location: components.url!.absoluteString])
        response.setCookie(Cookie(name: "sid", value: sid, path: "/", httpOnly: true))
        return response
    }

    struct CallbackForm: Decodable {
        var code: String?
        var state: String?
        var id_token: String?
        var user: String?
        var error: String?
    }

    private func callback(_ request: Request, context: BasicRequestContext) async throws -> Response {
        let form = try await URLEncodedFormDecoder().decode(CallbackForm.self, from: String(buffer: try await request.body.collect(upTo: 65536)))
        if form.error != nil { return Self.page(.ok, "sign-in cancelled") }
        // A callback without a session gets a new one, as Flask's session does.
        let sid = request.cookies["sid"]?.value ?? Self.random()
        let session = sessions.withLock { $0[sid, default: Session()] }
        if flaw == .replayable, let code = form.code, let earlier = signedInByCode.withLock({ $0[code] }) {
            return signIn(sid, earlier.subject, earlier.email)
        }
        guard let expectedNonce = checkState(form.state, session: session, sid: sid) else { return Self.page(.forbidden, "state refused") }
        if flaw == .formTokenTrusted, let token = form.id_token, let claims = try? Self.unverifiedClaims(token) {
            return signIn(sid, claims.subject.rawValue, claims.email)
        }
        guard let code = form.code,
            let (claims, refreshToken) = try await exchange(code, nonce: expectedNonce, verifier: session.codeVerifier, formToken: form.id_token)
        else {
            return Self.page(.unauthorized, "sign-in failed")
        }
        // The tutorial that insists on a verified e-mail locks out Work & School accounts.
        if flaw == .requiresVerifiedEmail, claims.email == nil || claims.emailVerified?.value != true {
            return Self.page(.forbidden, "please use an account with a verified e-mail")
        }
        // The tutorial that tells relay addresses by their old domain takes any other private one for a forgery.
        if flaw == .relayDomainHardcoded, claims.isPrivateEmail?.value == true, claims.email?.hasSuffix("@privaterelay.appleid.com") != true {
            return Self.page(.forbidden, "not an Apple relay address")
        }
        sessions.withLock { $0[sid, default: Session()].refreshToken = refreshToken }
        var email = claims.email
        if flaw == .userEmailTrusted, let user = form.user,
            let forged = try? JSONDecoder().decode([String: JSONValue].self, from: Data(user.utf8))["email"]?.string
        {
            email = forged
        }
        if flaw == .replayable { signedInByCode.withLock { $0[code] = Session(subject: claims.subject.rawValue, email: email) } }
        guard createAccountIfNew(claims.subject.rawValue, email: claims.email) else {
            return Self.page(.internalServerError, "UNIQUE constraint failed: account_emails.email")
        }
        return signIn(sid, claims.subject.rawValue, email)
    }

    /// The nonce the callback's tokens must carry, or nil when its state is refused.
    private func checkState(_ state: String?, session: Session, sid: String) -> String? {
        switch flaw {
        case .noStateCheck: return session.nonce ?? ""
        case .stateNotBound: return state.flatMap { state in pendingByState.withLock { $0.removeValue(forKey: state) } }
        case .replayable: return state == session.state ? session.nonce : nil
        default:
            guard let state, state == session.state else { return nil }
            sessions.withLock { $0[sid]?.state = nil }
            return session.nonce
        }
    }

    /// `emailKeptOnDelete`: a `sub` without an account gets one, its e-mail inserted into the unique
    /// column: false when the e-mail is already there. (The other apps have no unique e-mail column:
    /// a token naming another `sub` with a known e-mail, `token.sub-mismatch`, would collide too.)
    private func createAccountIfNew(_ subject: String, email: String?) -> Bool {
        guard flaw == .emailKeptOnDelete, accounts.withLock({ $0[subject] }) == nil else { return true }
        if let email, !email.isEmpty, !accountEmails.withLock({ $0.insert(email).inserted }) { return false }
        accounts.withLock { $0[subject] = email ?? "" }
        return true
    }

    private func signIn(_ sid: String, _ subject: String?, _ email: String?) -> Response {
        sessions.withLock {
            $0[sid, default: Session()].subject = subject
            $0[sid, default: Session()].email = email
        }
        var response = Response(status: .seeOther, headers: [.location: "/me"])
        response.setCookie(Cookie(name: "sid", value: sid, path: "/", httpOnly: true))
        return response
    }

    /// A sign-in page that loads the server's script, configured by meta tags or `AppleID.auth.init`.
    static func scriptPage(_ style: ScriptStyle, settings: Settings, redirectURI: String, state: String, nonce: String) -> Response {
        let configuration: String
        switch style {
        case .metaTags:
            configuration = """
                <meta name="appleid-signin-client-id" content="\(settings.clientID)">
                <meta name="appleid-signin-scope" content="name email">
                <meta name="appleid-signin-redirect-uri" content="\(redirectURI)">
                <meta name="appleid-signin-state" content="\(state)">
                <meta name="appleid-signin-nonce" content="\(nonce)">
                <meta name="appleid-signin-use-popup" content="false">
                """
        case .initOptions:
            configuration = """
                <script>AppleID.auth.init({ clientId: '\(settings.clientID)', scope: 'name email', redirectURI: "\(redirectURI)",
                  state: '\(state)', nonce: '\(nonce)', usePopup: false });</script>
                """
        }
        let html = """
            <html><head><script src="\(settings.server)/appleid/1/auth.js"></script>\(configuration)</head>
            <body><div id="appleid-signin" data-color="black"></div></body></html>
            """
        return Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: html)))
    }

    static func page(_ status: HTTPResponse.Status, _ text: String) -> Response {
        Response(status: status, body: .init(byteBuffer: ByteBuffer(string: text)))
    }

    static func random() -> String { (0..<4).map { _ in String(UInt64.random(in: .min ... .max), radix: 36) }.joined() }
}

/// A JSON value of the `user` form field (the tutorial's `json.loads`).
enum JSONValue: Decodable {
    case string(String)
    case other

    init(from decoder: any Decoder) throws {
        self = (try? decoder.singleValueContainer().decode(String.self)).map(JSONValue.string) ?? .other
    }

    var string: String? {
        if case .string(let value) = self { return value }
        return nil
    }
}
