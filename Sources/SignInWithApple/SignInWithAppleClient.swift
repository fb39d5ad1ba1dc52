import AppleIDProtocol
import Foundation

/// Everything an app server needs for Sign in with Apple, in one value: the authorization redirect,
/// the callback, identity tokens, refresh, revocation and notifications.
///
/// ```swift
/// let siwa = try SignInWithAppleClient(configuration: .init(
///     environment: .production,            // or .custom(baseURL: "http://127.0.0.1:8080")
///     credentials: AppleCredentials(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: p8),
///     clientID: "com.example.app.web", redirectURI: "https://example.com/auth/apple/callback",
///     audiences: ["com.example.app", "com.example.app.web"]))
/// let pending = try await siwa.startSignIn()          // redirect the browser to pending.url
/// let result = try await siwa.completeSignIn(formBody: body)   // in the form_post callback
/// ```
public struct SignInWithAppleClient: Sendable {
    public struct Configuration: Sendable {
        public var environment: AppleEnvironment
        public var credentials: AppleCredentials
        /// The Services ID (web) the browser flow uses.
        public var clientID: String
        public var redirectURI: String
        /// Every client ID of the app group whose tokens this server accepts (bundle IDs, Services IDs).
        public var audiences: Set<String>
        public var scopes: [Scope]
        /// How long a started sign-in may take to come back.
        public var stateLifetime: TimeInterval
        public var leeway: TimeInterval
        /// The shortest time between two key-set fetches caused by unknown `kid`s.
        public var keyRefetchCooldown: TimeInterval = 60

        public init(
            environment: AppleEnvironment, credentials: AppleCredentials, clientID: String, redirectURI: String,
            audiences: Set<String> = [], scopes: [Scope] = [.name, .email], stateLifetime: TimeInterval = 600, leeway: TimeInterval = 60
        ) {
            self.environment = environment
            self.credentials = credentials
            self.clientID = clientID
            self.redirectURI = redirectURI
            self.audiences = audiences.union([clientID])
            self.scopes = scopes
            self.stateLifetime = stateLifetime
            self.leeway = leeway
        }
    }

    public let configuration: Configuration
    public let keys: AppleKeySet
    public let identityTokens: IdentityTokenVerifier
    public let notifications: NotificationVerifier
    public let tokens: AppleTokenClient
    public let requests: AuthorizationRequestBuilder
    let states: any AuthorizationStateStore
    let clock: @Sendable () -> Date

    public init(
        configuration: Configuration, transport: any HTTPTransport = AsyncHTTPClientTransport(),
        states: any AuthorizationStateStore = MemoryAuthorizationStateStore(), retry: AppleTokenClient.RetryPolicy = .init(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        let environment = configuration.environment
        self.configuration = configuration
        self.keys = AppleKeySet(
            environment: environment, transport: transport, refetchCooldown: configuration.keyRefetchCooldown, clock: clock)
        self.identityTokens = IdentityTokenVerifier(
            environment: environment, audiences: configuration.audiences, keys: keys, leeway: configuration.leeway, clock: clock)
        self.notifications = NotificationVerifier(
            environment: environment, audiences: configuration.audiences, keys: keys, leeway: configuration.leeway, clock: clock)
        let secrets = try ClientSecretProvider(
            credentials: configuration.credentials, clientID: configuration.clientID, environment: environment, clock: clock)
        self.tokens = AppleTokenClient(environment: environment, secrets: secrets, transport: transport, retry: retry)
        self.requests = AuthorizationRequestBuilder(environment: environment, clientID: configuration.clientID)
        self.states = states
        self.clock = clock
    }

    /// Starts a web sign-in: remembers the state, nonce and PKCE verifier, returns the URL to redirect to.
    public func startSignIn(scopes: [Scope]? = nil) async throws -> PendingAuthorization {
        let pending = requests.makeRequest(redirectURI: configuration.redirectURI, scopes: scopes ?? configuration.scopes)
        try await states.save(pending, expiresAt: clock().addingTimeInterval(configuration.stateLifetime))
        return pending
    }

    /// Completes a web sign-in from the `form_post` body Apple's page submitted.
    public func completeSignIn(formBody: [UInt8]) async throws -> SignInResult {
        try await completeSignIn(try AuthorizationCallback(formEncoded: String(decoding: formBody, as: UTF8.self)))
    }

    /// Completes a web sign-in: checks the state (single use), verifies the front-channel id_token
    /// when present, exchanges the code, verifies the token endpoint's id_token.
    public func completeSignIn(_ callback: AuthorizationCallback) async throws -> SignInResult {
        if let error = callback.error { throw CallbackError.apple(error) }
        guard let state = callback.state, let pending = try await states.take(state: state, now: clock()) else {
            throw CallbackError.unknownState
        }
        guard let code = callback.code, !code.isEmpty else { throw CallbackError.missingCode }
        var frontChannel: VerifiedIdentityToken?
        if let idToken = callback.idToken {
            do {
                frontChannel = try await identityTokens.verify(idToken, nonce: pending.nonce, authorizationCode: code)
            } catch let error as IdentityTokenError {
                await giveBack(try? await tokens.exchange(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier))
                throw error
            }
        }
        let response = try await tokens.exchange(code: code, redirectURI: pending.redirectURI, codeVerifier: pending.codeVerifier)
        do {
            guard let idToken = response.idToken else {
                throw AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")
            }
            let identity = try await identityTokens.verify(idToken, nonce: pending.nonce, accessToken: response.accessToken)
            if let frontChannel, frontChannel.subject != identity.subject { throw CallbackError.subjectMismatch }
            return SignInResult(identity: identity, user: callback.user, tokens: response, state: state)
        } catch {
            await giveBack(response)
            throw error
        }
    }

    /// A sign-in that fails after Apple authorized it (a token that does not verify, clocks that
    /// disagree) would otherwise use up the user's first authorization: the name and e-mail Apple
    /// sent are dropped with the failure and never come again. Revoking what the code issued makes
    /// the retry a first authorization again. Best effort: a failure here changes nothing.
    private func giveBack(_ response: TokenResponse?) async {
        guard let response else { return }
        if let refreshToken = response.refreshToken {
            try? await tokens.revoke(token: refreshToken, hint: .refreshToken)
        } else {
            try? await tokens.revoke(token: response.accessToken, hint: .accessToken)
        }
    }

    /// Verifies an identity token of any client of the app group (a native app's, for instance).
    public func verifyIdentityToken(_ token: String, nonce: Nonce? = nil) async throws -> VerifiedIdentityToken {
        try await identityTokens.verify(token, nonce: nonce)
    }

    /// Verifies the body Apple POSTs to the notification endpoint.
    public func verifyNotification(body: [UInt8]) async throws -> AppleNotification {
        try await notifications.verify(body: body)
    }
}

/// A completed sign-in.
public struct SignInResult: Sendable, Hashable {
    /// The verified identity: ``VerifiedIdentityToken/subject`` is the account key.
    public var identity: VerifiedIdentityToken
    /// Name and e-mail, sent only on the user's first authorization: store them now, they never come again.
    public var user: AuthorizedUser?
    /// Keep ``TokenResponse/refreshToken`` to revoke it when the user deletes their account.
    public var tokens: TokenResponse
    /// The `state` of the authorization this result completes: the key under which an app kept what
    /// the sign-in was for (plain sign-in, linking an existing account, a page to return to).
    public var state: String

    /// Whether this is the user's first authorization of the app group.
    public var isFirstAuthorization: Bool { user != nil }
}
