import AppleIDProtocol
import Foundation

/// Everything an app server needs for Sign in with Apple, for one app group: the web sign-in bound
/// to the browser, native sign-in, identity tokens, grants (refresh, the daily check, revocation)
/// and notifications.
///
/// ```swift
/// let siwa = try SignInWithAppleClient(configuration: .init(
///     environment: .production,            // or .custom(baseURL: "http://127.0.0.1:8080")
///     credentials: AppleCredentials(teamID: "TEAMID1234", keyID: "KEYID12345", privateKeyPEM: p8),
///     primaryAppID: "com.example.app",
///     web: .init(servicesID: "com.example.app.web", redirectURI: "https://example.com/auth/apple/callback")))
/// ```
public struct SignInWithAppleClient: Sendable {
    public struct Configuration: Sendable {
        /// The web sign-in: the Services ID and the Return URL registered for it.
        public struct Web: Sendable, Hashable {
            public var servicesID: String
            public var redirectURI: String

            public init(servicesID: String, redirectURI: String) {
                self.servicesID = servicesID
                self.redirectURI = redirectURI
            }
        }

        public var environment: AppleEnvironment
        /// The one Sign in with Apple key of the team; it signs the client secrets of every client ID.
        public var credentials: AppleCredentials
        /// The primary App ID of the app group (the iOS app's bundle ID). Native apps' codes are
        /// exchanged with it, and Apple addresses server-to-server notifications to it.
        public var primaryAppID: String
        /// The browser sign-in; `nil` for a backend of native apps only.
        public var web: Web?
        /// Other client IDs of the group: App IDs grouped with the primary, other Services IDs.
        /// Their identity tokens are accepted and their codes and grants exchanged with their own ID.
        public var otherClientIDs: Set<String>
        public var scopes: [Scope]
        /// How long a started sign-in may take to come back.
        public var stateLifetime: TimeInterval
        /// How long a verified sign-in waits for its browser (one redirect).
        public var completionLifetime: TimeInterval = 300
        public var leeway: TimeInterval
        /// The shortest time between two key-set fetches caused by unknown `kid`s.
        public var keyRefetchCooldown: TimeInterval = 60
        /// How often ``SignInWithAppleClient/validate(_:force:)`` asks Apple about one grant: Apple
        /// asks apps to check at most once a day.
        public var grantValidationInterval: TimeInterval = 86_400

        public init(
            environment: AppleEnvironment, credentials: AppleCredentials, primaryAppID: String, web: Web? = nil,
            otherClientIDs: Set<String> = [], scopes: [Scope] = [.name, .email], stateLifetime: TimeInterval = 600,
            leeway: TimeInterval = 60
        ) {
            self.environment = environment
            self.credentials = credentials
            self.primaryAppID = primaryAppID
            self.web = web
            self.otherClientIDs = otherClientIDs
            self.scopes = scopes
            self.stateLifetime = stateLifetime
            self.leeway = leeway
        }

        /// Every client ID of the app group: the audiences whose tokens are accepted.
        public var clientIDs: Set<String> {
            otherClientIDs.union([primaryAppID]).union(web.map { [$0.servicesID] } ?? [])
        }
    }

    public let configuration: Configuration
    public let keys: AppleKeySet
    public let identityTokens: IdentityTokenVerifier
    /// Accepts notifications addressed to the primary App ID only, as Apple sends them.
    public let notifications: NotificationVerifier
    /// The token endpoint as the web Services ID (the primary App ID without a web configuration).
    public let tokens: AppleTokenClient
    let tokenClients: [String: AppleTokenClient]
    public let requests: AuthorizationRequestBuilder
    let storage: any SignInWithAppleStorage
    let clock: @Sendable () -> Date

    /// - Parameter storage: Where started and verified sign-ins wait, and notifications seen are
    ///   remembered. Several instances of the app must share one (see ``SignInWithAppleStorage``).
    /// - Throws: ``PrivateKeyError`` for a key that does not load, ``ConfigurationError`` for a
    ///   client ID that is empty or not the primary App ID's group.
    public init(
        configuration: Configuration, transport: any HTTPTransport = AsyncHTTPClientTransport(),
        storage: any SignInWithAppleStorage = MemorySignInWithAppleStorage(), retry: AppleTokenClient.RetryPolicy = .init(),
        clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try ConfigurationError.check(configuration)
        let environment = configuration.environment
        self.configuration = configuration
        self.keys = AppleKeySet(
            environment: environment, transport: transport, refetchCooldown: configuration.keyRefetchCooldown, clock: clock)
        self.identityTokens = IdentityTokenVerifier(
            environment: environment, audiences: configuration.clientIDs, keys: keys, leeway: configuration.leeway, clock: clock)
        self.notifications = NotificationVerifier(
            environment: environment, audiences: [configuration.primaryAppID], keys: keys, leeway: configuration.leeway, clock: clock)
        var clients: [String: AppleTokenClient] = [:]
        for clientID in configuration.clientIDs {
            let secrets = try ClientSecretProvider(
                credentials: configuration.credentials, clientID: clientID, environment: environment, clock: clock)
            clients[clientID] = AppleTokenClient(environment: environment, secrets: secrets, transport: transport, retry: retry)
        }
        let mainClientID = configuration.web?.servicesID ?? configuration.primaryAppID
        self.tokenClients = clients
        self.tokens = clients[mainClientID]!
        self.requests = AuthorizationRequestBuilder(environment: environment, clientID: mainClientID)
        self.storage = storage
        self.clock = clock
    }

    /// The token endpoint as `clientID`, one of the app group's.
    public func tokens(for clientID: String) throws -> AppleTokenClient {
        guard let client = tokenClients[clientID] else { throw ConfigurationError.notInAppGroup(clientID) }
        return client
    }

    /// Verifies an identity token of any client of the app group (a native app's, for instance).
    public func verifyIdentityToken(_ token: String, nonce: Nonce? = nil) async throws -> VerifiedIdentityToken {
        try await identityTokens.verify(token, nonce: nonce)
    }
}

/// A configuration the kit cannot work with, found when the client is made. A struct with static
/// members, so that a new rule breaks no caller: `catch ConfigurationError.noWebSignIn`.
public struct ConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the configuration; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        public static let emptyClientID = Kind("emptyClientID")
        public static let notInAppGroup = Kind("notInAppGroup")
        public static let noWebSignIn = Kind("noWebSignIn")
    }

    public let kind: Kind
    /// For ``Kind/notInAppGroup``, the client ID.
    public let clientID: String?
    public let description: String

    private init(_ kind: Kind, _ description: String, clientID: String? = nil) {
        self.kind = kind
        self.description = description
        self.clientID = clientID
    }

    public static let emptyClientID = Self(.emptyClientID, "a client ID of the configuration is empty")
    /// A client ID that is not the primary App ID, the web Services ID or one of the other client IDs.
    public static func notInAppGroup(_ clientID: String) -> Self {
        Self(.notInAppGroup, "\(clientID) is not a client ID of this configuration's app group (add it to otherClientIDs)", clientID: clientID)
    }
    /// The web sign-in was asked for, but the configuration has no ``SignInWithAppleClient/Configuration/web``.
    public static let noWebSignIn = Self(.noWebSignIn, "the configuration has no web sign-in: set web (the Services ID and its Return URL)")

    static func check(_ configuration: SignInWithAppleClient.Configuration) throws {
        guard configuration.clientIDs.allSatisfy({ !$0.isEmpty }) else { throw emptyClientID }
    }
}

extension ConfigurationError: MatchableError {}
