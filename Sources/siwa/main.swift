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
            Check.self, Orgs.self, Mail.self, Config.self,
        ])
}

struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Run the Apple ID server (SQLite under .siwa/, nothing to configure).")

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8080
    @Option(help: "Where the database, the demo key and demo.json live.") var dataDir = ".siwa"
    @Option(
        help: "A file (YAML or JSON) declaring teams, App IDs, Services IDs, keys and Apple IDs, applied at start (README: Environments as code).")
    var config: String?
    @Flag(help: "With --config: remove what the store has beyond the file (by default it is only reported).") var configPrune = false
    @Option(help: "A PostgreSQL URL (postgres://user:password@host:5432/database) instead of SQLite in the data directory.")
    var database: String?
    @Option(help: "PostgreSQL only: the most connections this instance opens.") var databasePoolSize = 16
    @Option(help: "PostgreSQL only: how long a request waits for a free connection before it is answered 503, e.g. 5s.")
    var databaseWait = "5s"
    @Option(help: "Issuer of the tokens: the server's URL (default), 'apple' for https://appleid.apple.com, or a URL.")
    var issuer: String?
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.") var logLevel = "info"
    @Option(help: "Log lines as text (default) or json (one object per line, for log shippers).") var logFormat = "text"
    @Option(help: "Headless mode: approve every authorization as this Apple ID ('first' for the first demo user).")
    var autoApprove: String?
    @Option(help: "Bearer token of the admin API (default: the one generated on the first start).") var adminToken: String?
    @Option(help: "Domain of Hide My Email relay addresses.") var relayDomain: String?
    @Option(help: "SMTP port of the private e-mail relay on --host (default 2525; 0 turns it off).") var smtpPort: Int?
    @Option(help: "host:port of an upstream SMTP server for relayed mail (default: the built-in mailboxes).") var smtpSmarthost: String?
    @Option(help: "DNS server for the e-mail sources' SPF check, host[:port] (default: the first nameserver of /etc/resolv.conf).")
    var dnsResolver: String?
    @Flag(
        inversion: .prefixedNo,
        help: "Show the current two-factor code and the precise reason of errors on the pages (default: on for a loopback --host only).")
    var developmentMode: Bool?
    @Option(help: "The playground, a relying party on the demo Services ID: on or off (default: on for a loopback --host only).")
    var playground: Switch?
    @Option(help: "How long an undelivered notification is retried, e.g. 24h (then it is abandoned).") var notificationRetryWindow = "24h"
    @Option(help: "The longest wait between two delivery attempts, e.g. 1h.") var notificationMaxBackoff = "1h"
    @Option(help: "How long an instance holds the notifications it is delivering before another instance may take them over.")
    var notificationLease = "60s"
    @Option(help: "How long a signing key signs before the next one takes over, e.g. 30d.") var keyRotationInterval = "30d"
    @Option(help: "How long, at least, the next signing key is published before it signs.") var keyPublicationLead = "1d"
    @Option(help: "How long a retired signing key stays in /auth/keys.") var retiredKeyRetention = "7d"
    @Option(help: "How often to check whether the keys are due and to read them again (what other instances rotated).")
    var keyCheckInterval = "10s"

    func run() async throws {
        guard let level = Logger.Level(rawValue: logLevel) else {
            throw ValidationError("unknown log level \(logLevel)")
        }
        var settings = ServeSettings()
        settings.host = host
        settings.port = port
        settings.dataDirectory = dataDir
        settings.configPath = config
        settings.configPrune = configPrune
        settings.databaseURL = database
        guard let wait = Secret.seconds(databaseWait), wait > 0, wait <= 60 else {
            throw ValidationError("--database-wait is a duration from 1s to 60s, such as 5s")
        }
        settings.databasePool.leaseTimeout = .seconds(wait)
        settings.databasePool.maximumConnections = databasePoolSize
        settings.issuer = issuer
        settings.logLevel = level
        settings.autoApprove = autoApprove
        settings.adminToken = adminToken
        settings.relayDomain = relayDomain
        settings.smtpPort = smtpPort
        settings.smtpSmarthost = smtpSmarthost
        settings.dnsResolver = dnsResolver
        settings.developmentMode = developmentMode
        settings.playground = playground.map { $0 == .on }
        guard let window = Secret.seconds(notificationRetryWindow), let backoff = Secret.seconds(notificationMaxBackoff)
        else { throw ValidationError("--notification-retry-window and --notification-max-backoff are durations such as 30m, 24h, 2d") }
        settings.deliveryPolicy.deliveryWindow = TimeInterval(window)
        settings.deliveryPolicy.maximumDelay = TimeInterval(backoff)
        try applyInstanceOptions(to: &settings)
        guard ["text", "json"].contains(logFormat) else { throw ValidationError("--log-format is text or json") }
        let json = logFormat == "json"
        // Every line logged while a request is handled carries its request_id.
        LoggingSystem.bootstrap(
            { label, provider in
                var handler: any LogHandler =
                    json
                    ? JSONLogHandler(label: label, metadataProvider: provider)
                    : StreamLogHandler.standardError(label: label, metadataProvider: provider)
                handler.logLevel = level
                return handler
            }, metadataProvider: RequestIdentity.metadataProvider)
        do {
            try settings.validate()
            try await ServerBootstrap.run(settings)
        } catch let error as StartupError {
            // One line that names the setting to change, and exit 1.
            FileHandle.standardError.write(Data("siwa serve: \(error)\n".utf8))
            throw ExitCode.failure
        }
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
        guard let seconds = Self.seconds(lifetime) else {
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

    static func seconds(_ text: String) -> Int? {
        let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86_400]
        guard let unit = text.last, let factor = units[unit], let value = Int(text.dropLast()) else { return Int(text) }
        // Typed by a person: a product past Int's range is no duration (and must not trap).
        let (seconds, overflow) = value.multipliedReportingOverflow(by: factor)
        return overflow ? nil : seconds
    }
}

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
