import ArgumentParser
import Foundation
import Hummingbird
import JuiceApp
import Logging
import SignInWithApple

/// `juice`: the sample app from Apple's talk, against a local `siwa serve` (default) or the real Apple.
struct Juice: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Juice: e-mail and password accounts and Sign in with Apple side by side.",
        discussion: "Start the local Apple ID server first (swift run siwa serve), then juice, then open http://127.0.0.1:8081.")

    enum AppleMode: String, ExpressibleByArgument { case local, production }

    @Option(help: "Address to listen on.") var host = "127.0.0.1"
    @Option(help: "Port to listen on.") var port = 8081
    @Option(help: "The URL browsers use to reach Juice (default: http://HOST:PORT).") var baseURL: String?
    @Option(help: "Folder of Juice's SQLite database.") var dataDir = ".juice"
    @Option(help: "Appearance of the Sign in with Apple button: black, white or white-outline.") var buttonStyle = "black"
    @Option(help: "local: the siwa server of --siwa-data-dir; production: the real Apple.") var apple = AppleMode.local
    @Option(help: "The local server's data folder (its demo.json).") var siwaDataDir = ".siwa"
    @Option(help: "Production: your Team ID.") var teamId: String?
    @Option(help: "Production: the Sign in with Apple key's ID.") var keyId: String?
    @Option(help: "Production: the AuthKey_<KeyID>.p8 file.") var keyFile: String?
    @Option(help: "Production: the primary App ID of your app group (notifications are addressed to it).") var primaryAppId: String?
    @Option(help: "Production: your Services ID.") var clientId: String?
    @Option(help: "Production: the registered return URL (default: BASE_URL/auth/apple/callback).") var redirectUri: String?
    @Option(help: "Production: other client IDs of the app group whose tokens Juice accepts (comma-separated).") var otherClientIds: String?
    @Option(help: "The SMTP server order confirmations go to (siwa serve's relay by default).") var smtpHost = "127.0.0.1"
    @Option(help: "Its port; 0 sends no order confirmations.") var smtpPort = 2525
    @Option(help: "The sender of order confirmations: a registered e-mail source of the app's team.")
    var mailFrom = OrderMailSettings.defaultSender
    @Option(help: "Log level: trace, debug, info, notice, warning, error.") var logLevel = "info"

    func validate() throws {
        guard (1...65_535).contains(port) else { throw ValidationError("--port \(port) is not a port: choose one from 1 to 65535") }
        guard (0...65_535).contains(smtpPort) else { throw ValidationError("--smtp-port \(smtpPort) is not a port: choose one from 0 to 65535") }
    }

    func run() async throws {
        var logger = Logger(label: "juice")
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        guard let style = AppleButtonStyle(rawValue: buttonStyle) else {
            throw ValidationError("--button-style must be black, white or white-outline")
        }
        let base = baseURL ?? "http://\(host):\(port)"
        let signInWithApple: SignInWithAppleClient.Configuration
        var local: LocalAppleIDServer?
        switch apple {
        case .local:
            let server: LocalAppleIDServer
            do {
                server = try LocalAppleIDServer(dataDirectory: siwaDataDir)
            } catch {
                FileHandle.standardError.write(Data("juice: \(error)\n".utf8))
                throw ExitCode.failure
            }
            local = server
            signInWithApple = server.clientConfiguration(juiceBaseURL: base)
        case .production:
            guard let teamId, let keyId, let keyFile, let primaryAppId, let clientId else {
                throw ValidationError("--apple production needs --team-id, --key-id, --key-file, --primary-app-id and --client-id")
            }
            signInWithApple = .init(
                environment: .production,
                credentials: AppleCredentials(teamID: teamId, keyID: keyId, privateKeyPEM: try String(contentsOfFile: keyFile, encoding: .utf8)),
                primaryAppID: primaryAppId,
                web: .init(servicesID: clientId, redirectURI: redirectUri ?? JuiceConfiguration.redirectURI(baseURL: base)),
                otherClientIDs: Set((otherClientIds ?? "").split(separator: ",").map(String.init)), scopes: [.name, .email])
        }
        let configuration = JuiceConfiguration(
            host: host, port: port, baseURL: base, signInWithApple: signInWithApple, buttonStyle: style,
            orderMail: smtpPort == 0 ? nil : OrderMailSettings(host: smtpHost, port: smtpPort, sender: mailFrom))
        if let local {
            do {
                try await local.register(juiceBaseURL: configuration.baseURL)
            } catch {
                FileHandle.standardError.write(
                    Data("juice: could not register with the local Apple ID server at \(local.facts.server): \(error)\n".utf8))
                throw ExitCode.failure
            }
            logger.info("registered with the local Apple ID server", metadata: ["server": "\(local.facts.server)"])
        }
        let database = try await JuiceDatabase.open(path: URL(fileURLWithPath: dataDir).appendingPathComponent("juice.sqlite").path, logger: logger)
        let startLogger = logger
        let app = try await buildJuiceApplication(configuration: configuration, database: database, logger: logger) {
            // Only once the socket listens; written unbuffered (a redirected stdout would hold a print back) and logged.
            FileHandle.standardOutput.write(Data("Juice is running at \(configuration.baseURL)\n".utf8))
            startLogger.info("Juice is running", metadata: ["url": "\(configuration.baseURL)"])
        }
        do {
            try await app.runService()
        } catch {
            try? await database.close()
            if "\(error)".contains("Address already in use") {
                FileHandle.standardError.write(Data("juice: port \(port) is in use; choose another with --port\n".utf8))
                throw ExitCode.failure
            }
            throw error
        }
        try await database.close()
    }
}

// In main.swift `@main` is refused, and a plain `Juice.main()` would pick ParsableCommand's
// synchronous entry point. A generic call picks the async one.
func startCommand<Command: AsyncParsableCommand>(_ command: Command.Type) async { await command.main() }
await startCommand(Juice.self)
