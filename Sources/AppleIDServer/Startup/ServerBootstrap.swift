import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Hummingbird
import Logging

/// `siwa serve`: opens the SQLite store under the data directory, loads or creates the signing
/// keys, seeds the demo team and Apple IDs on the first start, prints what a newcomer needs and
/// serves until interrupted.
public enum ServerBootstrap {
    public static func run(_ settings: ServeSettings) async throws {
        var logger = Logger(label: "siwa")
        logger.logLevel = settings.logLevel
        let directory = URL(fileURLWithPath: settings.dataDirectory).standardizedFileURL
        try PrivateFiles.makeDirectory(directory)
        let sealer = try StorageKey.sealer(directory: directory)
        let databaseFile = directory.appendingPathComponent("siwa.sqlite")
        if settings.databaseURL == nil { try PrivateFiles.touch(databaseFile) }
        let (store, shutdownStore) =
            if let url = settings.databaseURL {
                try await SQLStore.postgres(url: url, logger: logger, sealer: sealer)
            } else {
                try await SQLStore.sqlite(path: databaseFile.path, logger: logger, sealer: sealer)
            }
        do {
            var configuration = ProviderConfiguration(issuer: settings.resolvedIssuer)
            if let relayDomain = settings.relayDomain { configuration.relayDomain = relayDomain }
            let provider = try await AppleIDProvider.start(
                configuration: configuration, store: store, clock: SystemClock(), logger: logger)
            let (facts, keyPEM) = try await prepareDemo(provider: provider, settings: settings, files: DemoFiles(directory: directory))
            let options = ServerOptions(
                host: settings.host, port: settings.port, baseURL: settings.baseURL, developmentMode: settings.resolvedDevelopmentMode,
                autoApproveAppleID: try autoApproveAppleID(settings.autoApprove, facts: facts),
                adminToken: settings.adminToken ?? facts.adminToken, playground: settings.resolvedPlayground ? (facts, keyPEM) : nil)
            if settings.resolvedDevelopmentMode && !settings.bindsLoopbackOnly {
                logger.warning(
                    "development mode is on while listening beyond loopback: the sign-in pages show every Apple ID's two-factor code and the precise reason of errors to anyone who reaches \(settings.host)"
                )
            }
            // Written unbuffered so scripts that read the server's output see it at once.
            FileHandle.standardOutput.write(Data(banner(facts: facts, options: options, dataDirectory: directory.path).utf8))
            let delivery = NotificationDelivery(
                provider: provider, sender: HTTPNotificationSender(), policy: settings.deliveryPolicy, logger: logger)
            let app = try await buildApplication(
                provider: provider, options: options, logger: logger,
                services: [NotificationDeliveryService(delivery: delivery), ExpiredRecordSweeper(provider: provider, logger: logger)])
            try await app.runService()
        } catch {
            try? await shutdownStore()
            throw error
        }
        try await shutdownStore()
    }

    /// Seeds on the first start; later starts reuse `demo.json` and register this start's return URL.
    static func prepareDemo(provider: AppleIDProvider, settings: ServeSettings, files: DemoFiles) async throws -> (DemoFacts, String) {
        let returnURLs = [ServerOptions.playgroundReturnURL(baseURL: settings.baseURL), DemoSeed.juiceReturnURL]
        let seed = DemoSeed()
        if var facts = try files.loadFacts(), try await provider.store.team(facts.teamID) != nil {
            try await seed.registerReturnURLs(returnURLs, provider: provider)
            facts.server = settings.baseURL
            facts.issuer = provider.configuration.issuer
            facts.returnURLs = try await provider.store.client(facts.servicesID)?.returnURLs ?? returnURLs
            for index in facts.users.indices where facts.users[index].totpSecret == nil {
                facts.users[index].totpSecret = try await provider.store.account(appleID: facts.users[index].appleID)?.totpSecret
            }
            try files.save(facts)
            return (facts, try files.readKey(facts.keyID))
        }
        let (facts, keyPEM) = try await seed.seed(
            provider: provider, server: settings.baseURL, returnURLs: returnURLs, keyFilePath: { files.keyURL($0).path })
        try files.writeKeyOnce(keyPEM, keyID: facts.keyID)
        try files.save(facts)
        return (facts, keyPEM)
    }

    static func autoApproveAppleID(_ requested: String?, facts: DemoFacts) throws -> String? {
        guard let requested else { return nil }
        return requested == "first" ? facts.users.first?.appleID : requested
    }

    static func banner(facts: DemoFacts, options: ServerOptions, dataDirectory: String) -> String {
        var lines = [
            "",
            "Apple ID server listening on \(options.baseURL)",
            "  issuer:            \(facts.issuer)",
            options.playground == nil
                ? "  playground:        off (--playground on to enable)" : "  playground:        \(options.baseURL)/playground",
            "  discovery:         \(options.baseURL)/.well-known/openid-configuration",
            "  keys (JWKS):       \(options.baseURL)/auth/keys",
            "",
            "Demo developer team",
            "  Team ID:           \(facts.teamID)",
            "  Key ID:            \(facts.keyID)  (private key: \(facts.keyFile))",
            "  App ID (bundle):   \(facts.bundleID)",
            "  Services ID:       \(facts.servicesID)",
            "  return URLs:       \(facts.returnURLs.joined(separator: ", "))",
            "",
            options.developmentMode
                ? "Demo Apple IDs (development mode: the two-factor code is shown on the sign-in page)"
                : "Demo Apple IDs (development mode is off: get a current two-factor code with `siwa users code <Apple ID>`, or from totp_secret in demo.json with any authenticator app)",
        ]
        for user in facts.users {
            let status = RealUserStatus(rawValue: user.realUserStatus).map { "\($0)" } ?? "\(user.realUserStatus)"
            lines.append("  \(user.appleID)  password: \(user.password)  real_user_status: \(user.realUserStatus) (\(status))")
        }
        if let appleID = options.autoApproveAppleID {
            lines.append("")
            lines.append("Headless mode: every authorization is approved as \(appleID)")
        }
        lines += [
            "",
            "These facts and the admin token are in \(dataDirectory)/demo.json.",
            "Stop the server with Ctrl-C.",
            "",
        ]
        return lines.joined(separator: "\n")
    }
}
