import AppleIDAdminAPI
import AppleIDProtocol
import ArgumentParser
import SignInWithApple

/// `siwa notify …`: the notification endpoint, the delivery log, the credential-revoked feed.
struct Notify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Server-to-server notifications: set an app group's endpoint, list deliveries, follow revocations.",
        subcommands: [Endpoint.self, Test.self, Deliveries.self, Events.self])

    struct Test: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Send a signed test notification to an app group's endpoint, through the outbox (see `notify deliveries`).")
        @Argument(help: "The app group's primary App ID.") var group: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .post, "/admin/app-groups/\(AdminClient.segment(group))/test-notification", as: TestNotificationView.self)
        }
    }

    struct Endpoint: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Set (or with --clear remove) an app group's notification endpoint.")
        @Argument(help: "The app group's primary App ID.") var group: String
        @Argument(help: "The endpoint URL.") var url: String?
        @Flag(help: "Remove the endpoint.") var clear = false
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            guard (url == nil) == clear else { throw ValidationError("give a URL or --clear") }
            try await connection.client().show(
                .put, "/admin/app-groups/\(AdminClient.segment(group))/notification-endpoint", EndpointChange(url: url), as: NoAnswer.self)
        }
    }

    struct Deliveries: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "The notifications and every delivery attempt (time, status, latency, error).")
        @Option(help: "Only this app group.") var group: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(
                .get, "/admin/deliveries" + (group.map { "?group_id=\(AdminClient.segment($0))" } ?? ""), as: DeliveryList.self)
        }
    }

    struct Events: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Credential revocations of a client's app group after a cursor, waiting up to --wait seconds for one (our extension).")
        @Option(help: "The client ID (bundle ID or Services ID).") var clientID: String
        @Option(help: "The cursor of the last answer.") var after: String?
        @Option(help: "Seconds to wait for an event (0 to 60).") var wait = 0
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            var path = "/admin/credential-events?client_id=\(AdminClient.segment(clientID))&wait=\(wait)"
            if let after { path += "&after=\(AdminClient.segment(after))" }
            try await connection.client().show(.get, path, as: CredentialEventFeed.self)
        }
    }
}

/// `siwa authorize`: a web authorization answered headlessly, or a native credential.
struct Authorize: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Authorize as an Apple ID without a browser: the web answer (code, id_token, user), or with --native an app's credential.")

    @Option(help: "The Apple ID that approves.") var appleID: String
    @Option(help: "Web: the Services ID.") var clientID: String?
    @Option(help: "Web: a registered Return URL.") var redirectURI: String?
    @Option(help: "Native: the App ID's bundle ID.") var bundleID: String?
    @Flag(help: "Mint what ASAuthorizationAppleIDCredential holds for --bundle-id.") var native = false
    @Option(help: "Scopes, e.g. \"name email\".") var scope: String?
    @Option(help: "Web: response_type (default code).") var responseType: String?
    @Option(help: "Web: response_mode (query, fragment, form_post).") var responseMode: String?
    @Option(help: "Web: state.") var state: String?
    @Option(help: "The nonce as sent (web: verbatim; native: hashed from --raw-nonce if given).") var nonce: String?
    @Option(help: "Native: the app's raw nonce; its SHA-256 is sent, as apps do.") var rawNonce: String?
    @Flag(help: "Hide the e-mail behind a relay address on a first authorization.") var hideEmail = false
    @Flag(help: "Native: only an existing credential (preferImmediatelyAvailableCredentials).") var existingOnly = false
    @Option(
        parsing: .upToNextOption,
        help: "Native: the providers the app asks for: apple-id, password, passkey-account-creation (iOS 26; default: apple-id).")
    var providers: [String] = []
    @Option(help: "Native: the credential the user picks on the sheet: apple-id, password or password:USER.") var pick: String?
    @Flag(help: "Native: the user cancels the sheet (ASAuthorizationError.canceled).") var cancel = false
    @Option(help: "Web: how many answers (fresh codes), 1 to 1000.") var count: Int?
    @OptionGroup var connection: AdminConnection

    func run() async throws {
        let client = try connection.client()
        if native {
            guard let bundleID else { throw ValidationError("--native needs --bundle-id") }
            let sentNonce = rawNonce.map { Nonce(raw: $0, convention: .sha256).transmittedValue } ?? nonce
            let order = NativeOrder(
                bundleID: bundleID, appleID: appleID, scope: scope, nonce: sentNonce,
                providers: providers.isEmpty ? nil : providers.flatMap { $0.split(separator: ",").map(String.init) }, existingOnly: existingOnly,
                pick: pick, hideEmail: hideEmail, cancel: cancel)
            return try await client.show(.post, "/admin/native-credentials", order, as: NativeSheetAnswer.self)
        }
        guard let clientID, let redirectURI else { throw ValidationError("a web authorization needs --client-id and --redirect-uri") }
        let request = AuthorizationRequest(
            clientID: clientID, redirectURI: redirectURI, responseType: responseType, responseMode: responseMode, scope: scope, state: state,
            nonce: nonce)
        let order = AuthorizationOrder(authorization: request, appleID: appleID, hideEmail: hideEmail ? true : nil, count: count)
        try await client.show(.post, "/admin/authorizations", order, as: AuthorizationResults.self)
    }
}

/// `siwa credential-state`: what getCredentialState(forUserID:) answers.
struct CredentialState: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "credential-state", abstract: "authorized, revoked, notFound or transferred for a user and client.")
    @Option(help: "The user identifier (sub) in the client's team; `siwa users list` shows each user's.") var user: String
    @Option(help: "The client ID.") var clientID: String
    @OptionGroup var connection: AdminConnection
    func run() async throws {
        if user.contains("@") {
            throw CLIError("\(user) is an Apple ID, not a user identifier (sub); `siwa users list` shows each user's sub per team")
        }
        try await connection.client().show(
            .get, "/admin/credential-state?user=\(AdminClient.segment(user))&client_id=\(AdminClient.segment(clientID))", as: CredentialStateView.self
        )
    }
}
