import AppleIDProtocol
import AppleIDServer
import AppleIDServerApp
import ArgumentParser
import Foundation
import Logging

struct Siwa: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "siwa",
        abstract: "Sign in with Apple, end to end: a local Apple ID server and the tools around it.",
        version: SiwaVersion.current,
        subcommands: [
            Serve.self, Secret.self, Verify.self, Doctor.self, Users.self, Authorize.self, Notify.self, CredentialState.self, Clock.self,
            Quirks.self, ReturnURL.self, Teams.self, Apps.self, Transfer.self, Keys.self, Bench.self, Developers.self, EmailSources.self,
            Check.self, Orgs.self, Mail.self, Config.self, Reset.self,
        ])
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Apple ID server (SQLite under .siwa/, nothing to configure).")

    // No defaults here: an option given beats SIWA_* and the file, which beat the defaults
    // (ServeSettingKey holds them, and the help shows them).
    @Option(help: .init(ServeSettingKey.host.help)) var host: String?
    @Option(help: .init(ServeSettingKey.port.help)) var port: Int?
    @Option(help: .init(ServeSettingKey.dataDirectory.help)) var dataDir: String?
    @Option(help: .init(ServeSettingKey.databaseURL.help)) var database: String?
    @Option(help: .init(ServeSettingKey.databasePoolSize.help)) var databasePoolSize: Int?
    @Option(help: .init(ServeSettingKey.databaseWait.help)) var databaseWait: String?
    @Option(help: .init(ServeSettingKey.databasePreparedStatements.help)) var databasePreparedStatements: Switch?
    @Option(help: .init(ServeSettingKey.issuer.help)) var issuer: String?
    @Option(help: .init(ServeSettingKey.appleAsOf.help)) var appleAsOf: String?
    @Option(help: .init(ServeSettingKey.logLevel.help)) var logLevel: String?
    @Option(help: .init(ServeSettingKey.logFormat.help)) var logFormat: String?
    @Option(help: .init(ServeSettingKey.autoApprove.help)) var autoApprove: String?
    @Option(help: .init(ServeSettingKey.adminToken.help)) var adminToken: String?
    @Option(help: .init(ServeSettingKey.relayDomain.help)) var relayDomain: String?
    @Option(help: .init(ServeSettingKey.smtpHost.help)) var smtpHost: String?
    @Option(help: .init(ServeSettingKey.smtpPort.help)) var smtpPort: Int?
    @Option(help: .init(ServeSettingKey.smtpSmarthost.help)) var smtpSmarthost: String?
    @Option(help: .init(ServeSettingKey.relayRetention.help)) var relayRetention: String?
    @Option(help: .init(ServeSettingKey.relayTeamQuota.help)) var relayTeamQuota: String?
    @Option(help: .init(ServeSettingKey.dnsResolver.help)) var dnsResolver: String?
    @Flag(inversion: .prefixedNo, help: .init(ServeSettingKey.developmentMode.help)) var developmentMode: Bool?
    @Option(help: .init(ServeSettingKey.playground.help)) var playground: Switch?
    @Option(help: .init(ServeSettingKey.notificationRetryWindow.help)) var notificationRetryWindow: String?
    @Option(help: .init(ServeSettingKey.notificationMaxBackoff.help)) var notificationMaxBackoff: String?
    @Option(help: .init(ServeSettingKey.notificationLease.help)) var notificationLease: String?
    @Option(help: .init(ServeSettingKey.keyRotationInterval.help)) var keyRotationInterval: String?
    @Option(help: .init(ServeSettingKey.keyPublicationLead.help)) var keyPublicationLead: String?
    @Option(help: .init(ServeSettingKey.retiredKeyRetention.help)) var retiredKeyRetention: String?
    @Option(help: .init(ServeSettingKey.keyCheckInterval.help)) var keyCheckInterval: String?
    @Option(
        name: .long,
        help: """
            A YAML or JSON file: teams, App IDs, Services IDs (with quirks), keys, Apple IDs and organizations applied at start (README: Environments as code); \
            its server: section holds settings (after the options and SIWA_* variables).
            """)
    var config: String?
    @Flag(help: "With --config: remove what the store has beyond the file (by default it is only reported).") var configPrune = false

    func run() async throws {
        do {
            var settings = try ServeSettings.read(arguments: arguments, environment: ProcessInfo.processInfo.environment, configFile: config)
            // The file's declarations (everything but its server: section) are applied at start.
            settings.configPath = config
            settings.configPrune = configPrune
            Self.bootstrapLogging(level: settings.logLevel, json: settings.logFormat == .json)
            try settings.validate()
            try await ServerBootstrap.run(settings)
        } catch let error as StartupError {
            // One line that names the setting to change, and exit 1.
            FileHandle.standardError.write(Data("siwa serve: \(error)\n".utf8))
            throw ExitCode.failure
        }
    }

    /// Every line logged while a request is handled carries its request_id.
    static func bootstrapLogging(level: Logger.Level, json: Bool) {
        LoggingSystem.bootstrap(
            { label, provider in
                var handler: any LogHandler =
                    json
                    ? JSONLogHandler(label: label, metadataProvider: provider)
                    : StreamLogHandler.standardError(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestIdentity.metadataProvider)
    }
}

struct Secret: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print an ES256 client secret (the real Apple accepts it too).")

    @Option(help: "The 10-character Team ID.") var teamID: String
    @Option(help: "The 10-character Key ID.") var keyID: String
    @Option(help: "The AuthKey_<KeyID>.p8 file.") var key: String
    @Option(help: "The client ID (bundle ID or Services ID).") var clientID: String
    @Option(help: "Lifetime, e.g. 300s, 30m, 12h, 180d (at most 15777000 s).") var lifetime = "180d"
    @Option(help: "The aud claim.") var audience = "https://appleid.apple.com"

    func run() async throws {
        guard let seconds = DurationText.seconds(lifetime) else {
            throw ValidationError("lifetime \(lifetime) is not a number of seconds or a number followed by s, m, h or d")
        }
        let pem: String
        do {
            pem = try String(contentsOfFile: key, encoding: .utf8)
        } catch {
            let reason = FileManager.default.fileExists(atPath: key) ? "it cannot be read" : "there is no such file"
            throw CLIError("cannot read the key file \(key): \(reason) (--key names the AuthKey_<KeyID>.p8 you downloaded)")
        }
        do {
            let minter = try ClientSecretMinter(teamID: TeamID(rawValue: teamID), keyID: KeyID(rawValue: keyID), privateKeyPEM: pem)
            print(try await minter.mint(clientID: ClientID(rawValue: clientID), audience: audience, issuedAt: Date(), lifetime: seconds))
        } catch let error as ClientSecretMinter.MintError {
            throw ValidationError(error.description)
        }
    }
}

// `siwa serve` runs its tasks on NIO's event loops (before any task starts; see ConcurrencyOnEventLoops).
ConcurrencyOnEventLoops.installIfWanted(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)

// main.swift is top-level code once the target has several files: `@main` is refused there, and a
// plain `Siwa.main()` would pick ParsableCommand's synchronous entry point. A generic call picks the async one.
func startCommand<Command: AsyncParsableCommand>(_ command: Command.Type) async {
    if let refusal = VerbCheck.refusal(Array(CommandLine.arguments.dropFirst())) {
        FileHandle.standardError.write(Data("Error: \(refusal)\n".utf8))
        exit(1)
    }
    await command.main()
}
await startCommand(Siwa.self)
