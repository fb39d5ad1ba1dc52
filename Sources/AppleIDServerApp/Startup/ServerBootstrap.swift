import AppleIDConsole
import AppleIDDevelopmentFaults
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import AppleIDStore
import Crypto
import EnvironmentFile
import Foundation
import Hummingbird
import Logging
import OwnerOnlyFiles
import Prometheus
import RS256OpenSSL
import RS256Signing

/// `siwa serve`: opens the SQLite store under the data directory, loads or creates the signing
/// keys, seeds the demo team and Apple IDs on the first start, prints what a newcomer needs and
/// serves until interrupted.
public enum ServerBootstrap {
    public static func run(_ settings: ServeSettings) async throws {
        try settings.validate()
        let declaration = try settings.configPath.map { path throws(StartupError) in
            do throws(EnvironmentFileError) {
                return try EnvironmentFile.load(contentsOf: URL(fileURLWithPath: path), name: path)
            } catch {
                throw StartupError.configuration(error)
            }
        }
        var logger = Logger(label: "siwa")
        logger.logLevel = settings.logLevel
        // Before anything is created, written or printed: a taken port must leave no trace.
        try await PortCheck.ensureFree(host: settings.host, port: settings.port)
        let directory = URL(fileURLWithPath: settings.dataDirectory).standardizedFileURL
        let sealer: SecretSealer
        let databaseFile = directory.appendingPathComponent("siwa.sqlite")
        // A fresh SQLite file needs a signing key: its generation starts now, beside opening the store.
        let keyFactory: any SigningKeyFactory =
            settings.databaseURL == nil && !FileManager.default.fileExists(atPath: databaseFile.path)
            ? PrefetchingSigningKeyFactory() : GeneratingSigningKeyFactory()
        do {
            try PrivateFiles.makeDirectory(directory)
            sealer = try StorageKey.sealer(directory: directory)
            if settings.databaseURL == nil { try PrivateFiles.touch(databaseFile) }
        } catch let error as PrivateFileError {
            throw StartupError.dataDirectory(directory.path, "cannot be used: \(error.reason) (\(error.path))")
        } catch let error as StorageKeyError {
            throw StartupError.dataDirectory(directory.path, "has a storage key that cannot be read: \(error)")
        } catch let error as CocoaError {
            throw StartupError.dataDirectory(directory.path, "cannot be used: \(error.localizedDescription)")
        }
        let checkpoints = try SQLiteCheckpointSwitch.checkpoints(environment: ProcessInfo.processInfo.environment)
        let registry = PrometheusCollectorRegistry()
        let (store, shutdownStore) =
            if let url = settings.databaseURL {
                try await SQLStore.postgres(
                    url: url, pool: settings.databasePool, logger: logger, sealer: sealer, metrics: PrometheusMetricsFactory(registry: registry))
            } else {
                try await SQLStore.sqlite(path: databaseFile.path, logger: logger, sealer: sealer, checkpoints: checkpoints)
            }
        if settings.databaseURL == nil, checkpoints == .inCommit {
            logger.notice(
                "SQLite's log is checkpointed inside commits (\(SQLiteCheckpointSwitch.environmentVariable)=in-commit)",
                metadata: ["sqlite_checkpoints": "\(checkpoints.rawValue)"])
        }
        do {
            var configuration = ProviderConfiguration(issuer: settings.resolvedIssuer)
            configuration.appleAsOf = settings.appleAsOf
            if let relayDomain = settings.relayDomain { configuration.relayDomain = relayDomain }
            configuration.developmentMode = settings.resolvedDevelopmentMode
            configuration.keyRotation = settings.keyRotation
            let clock = SystemClock()
            let resolver = try settings.dnsResolver.map { UDPTXTResolver(server: try ResolverAddress.parse($0)) } ?? UDPTXTResolver.system()
            let provider = try await AppleIDProvider.start(
                configuration: configuration, storage: .store(store), clock: clock, keyFactory: keyFactory, logger: logger,
                metrics: PrometheusMetricsFactory(registry: registry),
                txtResolver: resolver, endpointResolver: SystemEndpointAddressResolver(), managedSignIn: HTTPFederatedSignIn(logger: logger),
                signer: signer, requestRecorder: StoredRequestLog(store: store, logger: logger),
                faultSwitch: configuration.developmentMode ? TokenFaults(logger: logger) : nil)
            logSigner(of: provider, logger: logger)
            var relaySettings = RelaySettings()
            relaySettings.usesSmarthost = settings.smtpSmarthost != nil
            relaySettings.retention = settings.relayRetention
            relaySettings.teamStorageQuota = settings.relayTeamQuota
            // The same on every instance of one database, and across restarts: relay Message-IDs map back.
            relaySettings.messageIDKey = sealer.derivedKey(purpose: "siwa relay message ids v1").withUnsafeBytes { Array($0) }
            let relay = MailRelay(provider: provider, store: store, settings: relaySettings)
            let files = DemoFiles(directory: directory)
            let (facts, keyPEM): (DemoFacts, String?) =
                if let declaration {
                    try await DeclaredStart.prepare(
                        file: declaration, prune: settings.configPrune, provider: provider, settings: settings, files: files, logger: logger)
                } else {
                    try await prepareDemo(provider: provider, settings: settings, files: files)
                }
            if settings.resolvedDevelopmentMode {
                // What POST /admin/reset returns to: a declaration is the seed of every start; otherwise the
                // first start's seeding recorded it (a data directory from before resets records it now).
                if declaration != nil { try await provider.recordSeededState() } else { try await provider.recordSeededStateIfMissing() }
            }
            var options = ServerOptions(
                host: settings.host, port: settings.port, baseURL: settings.baseURL, developmentMode: settings.resolvedDevelopmentMode,
                autoApproveAppleID: try await autoApproveAppleID(settings.autoApprove, facts: facts, store: store),
                adminToken: settings.adminToken ?? facts.adminToken,
                playground: settings.resolvedPlayground ? keyPEM.map { (facts, $0) } : nil)
            // From the storage key: the same on every instance of one database, and across restarts.
            options.formTokenKey = ServerOptions.formTokenKey(storageKey: sealer)
            if settings.resolvedDevelopmentMode && !settings.bindsLoopbackOnly {
                logger.warning(
                    "development mode is on while listening beyond loopback: the sign-in pages show every Apple ID's two-factor code and the precise reason of errors to anyone who reaches \(settings.host)"
                )
            }
            let delivery = NotificationDelivery(
                provider: provider, sender: HTTPNotificationSender(logger: logger), policy: settings.deliveryPolicy, logger: logger)
            let banner = banner(facts: facts, options: options, dataDirectory: directory.path, bindNote: settings.bindNote)
            let startLogger = logger
            let app = try await buildApplication(
                provider: provider, relay: relay, options: options, logger: logger,
                services: [
                    PeriodicService.notificationDelivery(delivery),
                    PeriodicService.expiredRecordSweep(provider: provider, relay: relay, logger: logger),
                    PeriodicService.signingKeyCheck(provider: provider, interval: .seconds(settings.keyCheckInterval), logger: logger),
                    PeriodicService.requestLogFlush(provider: provider),
                ] + (try await relayServices(settings: settings, relay: relay, logger: logger)),
                additions: try ServeAdditions.all(metrics: registry, adminToken: options.adminToken),
                onServerRunning: {
                    // Only now that the socket listens: demo.json points at this server, and the banner is true.
                    do {
                        try files.save(facts)
                    } catch {
                        startLogger.error("cannot write demo.json", metadata: ["path": "\(files.factsURL.path)", "error": "\(error)"])
                    }
                    // Written unbuffered so scripts that read the server's output see it at once.
                    FileHandle.standardOutput.write(Data(banner.utf8))
                })
            do {
                try await app.runService()
            } catch  where PortCheck.isAddressInUse(error) {
                throw StartupError.portInUse(settings.port)
            }
        } catch {
            try? await shutdownStore()
            throw error
        }
        try await shutdownStore()
    }

    /// Which registered playground callbacks a start replaces. The SQLite file belongs to one server,
    /// so every earlier start's callback goes. A shared database (`--database`) serves several
    /// instances, each on its own URL and with its own callback in use, so only callbacks no browser
    /// can reach (a wildcard host, from an older version) go there.
    static func isStalePlaygroundURL(_ url: String, sharedDatabase: Bool) -> Bool {
        guard ServerOptions.isPlaygroundReturnURL(url) else { return false }
        guard sharedDatabase else { return true }
        return ["http://0.0.0.0:", "http://[::]:", "http://:::"].contains { url.hasPrefix($0) }
    }

    /// Seeds on the first start; later starts reuse `demo.json`, keep one playground callback (this
    /// start's, when the playground runs; on a shared database, every instance's) and list only the
    /// demo Apple IDs that still exist.
    static func prepareDemo(provider: AppleIDProvider, settings: ServeSettings, files: DemoFiles) async throws -> (DemoFacts, String) {
        let playgroundURL = settings.resolvedPlayground ? ServerOptions.playgroundReturnURL(baseURL: settings.baseURL) : nil
        let returnURLs = [playgroundURL, DemoSeed.juiceReturnURL].compactMap { $0 }
        let seed = DemoSeed()
        if var facts = try files.loadFacts(), try await provider.teamExists(facts.teamID) {
            facts.returnURLs =
                try await seed.replacePlaygroundReturnURL(
                    with: playgroundURL, isPlaygroundURL: { Self.isStalePlaygroundURL($0, sharedDatabase: settings.databaseURL != nil) },
                    provider: provider) ?? returnURLs
            facts.server = settings.baseURL
            facts.issuer = provider.configuration.issuer
            facts.users = try await seed.existingUsers(facts.users, provider: provider)
            if facts.developer == nil, try await !provider.developerExists(email: "developer@example.com") {
                facts.developer = try await seed.seedDeveloper(provider: provider, teamID: facts.teamID)
            }
            // Always from the store: a demo.json of an earlier version holds the stored text, which
            // authenticator apps decode to another key.
            for index in facts.users.indices {
                let stored = try await provider.activeAccount(appleID: facts.users[index].appleID)?.totpSecret
                facts.users[index].totpSecret = stored.map(Credentials.authenticatorSecret(for:))
            }
            // Saved by the caller once the server listens, so a failed start leaves the old file as it was.
            return (facts, try files.readKey(facts.keyID))
        }
        let (facts, keyPEM) = try await seed.seed(
            provider: provider, server: settings.baseURL, returnURLs: returnURLs, keyFilePath: { files.keyURL($0).path })
        if settings.resolvedDevelopmentMode { try await provider.recordSeededState() }
        // The first start writes at once: the key and the passwords exist nowhere else.
        try files.writeKeyOnce(keyPEM, keyID: facts.keyID)
        try files.save(facts)
        return (facts, keyPEM)
    }

    /// The Apple ID of `--auto-approve`, which must exist: refused at start, not at the first request.
    static func autoApproveAppleID(_ requested: String?, facts: DemoFacts, store: any AccountStore) async throws -> String? {
        guard let requested else { return nil }
        let appleID = requested == "first" ? facts.users.first?.appleID ?? requested : requested
        guard let account = try await store.account(appleID: appleID), account.deletedAt == nil else {
            throw StartupError.unknownAutoApprove(appleID, demo: facts.users.map(\.appleID))
        }
        return account.appleID
    }

    /// Says which library signs id_tokens (issue 24): OpenSSL's libcrypto or swift-crypto.
    /// The RS256 signer `siwa serve` hands the engine: the fastest of this build on this CPU. The only
    /// place that links OpenSSL's libcrypto (`RS256OpenSSL`).
    static var signer: any RS256Signer { RS256Signers.fastest }

    static func logSigner(of provider: AppleIDProvider, logger: Logger) {
        let name = provider.keyRing.signerName
        logger.notice("id_tokens are signed by \(name)", metadata: ["signer": "\(name)"])
        logger.notice("\(ConcurrencyOnEventLoops.startupNote)", metadata: ["tasks_on_event_loops": "\(ConcurrencyOnEventLoops.isInstalled)"])
    }

    static func banner(facts: DemoFacts, options: ServerOptions, dataDirectory: String, bindNote: String? = nil) -> String {
        var lines = [
            "",
            "Apple ID server listening on \(options.baseURL)",
        ]
        if let bindNote { lines.append("  (\(bindNote))") }
        lines += [
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
            "Developer console:   \(options.baseURL)/console",
            facts.developer.map { "  \($0.email)  password: \($0.password)" } ?? "  (no demo developer)",
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
