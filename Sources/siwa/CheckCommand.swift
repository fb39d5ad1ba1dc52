import AppleIDAdminAPI
import AppleIDProtocol
import AppleIDServerApp
import ArgumentParser
import Foundation
import SiwaCheck

/// `siwa check`: signs in to an app as browsers would, attacks every step, and reports what the app
/// wrongly accepted (issue 20). The work is SiwaCheck's; this verb parses, starts a server when
/// none is given, and prints.
struct Check: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Test an app's Sign in with Apple against a server that attacks it (exit 1 when a required check fails).",
        discussion: """
            Each check is required (an attacker can use the flaw, or the app fails on what Apple sends today) or advice \
            (defence in depth, Apple's recommendations: at_hash, the two subs of a hybrid flow, PKCE, scopes). Failed \
            advice is reported and fails the run only with --strict; a check that did not run never fails it.
            """)

    @Option(help: "Where the app starts sign-in (it redirects to /auth/authorize).") var start: String
    @Option(help: "A URL of the app that answers 2xx when the browser is signed in.") var probe: String?
    @Option(help: "Without --probe: cookie:NAME, redirect:URL or body:TEXT tells a signed-in browser after the callback.")
    var signedInWhen: String?
    @Option(help: "The app's server-to-server notification endpoint (runs notify.*).") var notifications: String?
    @Option(help: "Where the signed-in user deletes the account (runs delete.*: it calls /auth/revoke, a new sign-up works).") var delete: String?
    @Option(help: "The Apple ID server (default: start one in process on --port, development mode).") var server: String?
    @Option(help: "The admin bearer token (default: \"admin_token\" in <data-dir>/demo.json).") var adminToken: String?
    @Option(help: "The data directory of siwa serve (or of the server this check starts).") var dataDir = ".siwa"
    @Option(help: "The port of the server this check starts.") var port = 8080
    @Option(help: "The Apple ID signed in (default: the first demo user).") var victim: String?
    @Option(help: "The Managed Apple ID of trust.managed-account (default: the first without e-mail, e.g. the demo school's student).")
    var managed: String?
    @Option(help: "The Apple ID that attacks (default: the second demo user).") var attacker: String?
    @Option(help: "How long token.timeout keeps the token endpoint silent, in seconds (longer than the app's timeout).")
    var timeoutDelay: Double = 20
    @Option(help: "How long drift.key-rotation waits for the app's key refetch cooldown after a refused new key, in seconds (0: no retry).")
    var keyRefetchWait: Double = 61
    @Flag(help: "A failed advice check fails the run too (exit 1).") var strict = false
    @Flag(help: "Print the results as JSON.") var json = false
    @Option(help: "Write the results as JUnit XML to this file.") var junit: String?

    func validate() throws {
        if probe == nil && signedInWhen == nil {
            throw ValidationError("give --probe URL, or --signed-in-when cookie:NAME | redirect:URL | body:TEXT")
        }
        if let signedInWhen, SignedInTest(argument: signedInWhen) == nil {
            throw ValidationError("--signed-in-when takes cookie:NAME, redirect:URL or body:TEXT, not \(signedInWhen)")
        }
    }

    func run() async throws {
        guard let server else {
            try await withOwnServer { url, token, facts in try await check(server: url, token: token, facts: facts, ownServer: true) }
            return
        }
        let connection = try AdminConnection.parse(["--server", server, "--data-dir", dataDir] + (adminToken.map { ["--admin-token", $0] } ?? []))
        let admin = try connection.client()
        try await check(
            server: admin.baseURL, token: admin.token, facts: try? DemoFacts.read(fromDataDirectory: URL(fileURLWithPath: dataDir)), ownServer: false)
    }

    private func check(server: String, token: String, facts: DemoFacts?, ownServer: Bool) async throws {
        var options = CheckOptions(
            start: start, probe: probe ?? "", server: server, adminToken: token,
            victim: victim ?? facts?.users.first?.appleID ?? "maria.ruiz@example.com",
            attacker: attacker ?? facts?.users.dropFirst().first?.appleID ?? "robin.unknown@example.com")
        options.timeoutDelay = timeoutDelay
        options.keyRefetchWait = keyRefetchWait
        options.signedInWhen = signedInWhen.flatMap(SignedInTest.init(argument:))
        options.managedAppleID = managed
        options.notifications = notifications
        options.delete = delete
        options.registersReturnURL = ownServer
        let began = ContinuousClock.now
        let results = await AppChecker(options: options) { step in
            FileHandle.standardError.write(Data("\rsiwa check: \(step)\u{1B}[K".utf8))
        }.run()
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        let elapsed = ContinuousClock.now - began
        let report = CheckReport(
            results: results, seconds: Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18, strict: strict)
        print(json ? try report.json() : report.table)
        if let junit { try Data(report.junit.utf8).write(to: URL(fileURLWithPath: junit)) }
        if report.failed { throw ExitCode.failure }
    }

    /// Starts `siwa serve` in process (development mode, loopback), prints what the app needs, runs `body`.
    private func withOwnServer(_ body: @escaping @Sendable (String, String, DemoFacts) async throws -> Void) async throws {
        var settings = ServeSettings()
        settings.port = port
        settings.dataDirectory = dataDir
        settings.developmentMode = true
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { [settings] in try await ServerBootstrap.run(settings) }
            let facts = try await Self.waitForServer(dataDir: dataDir, port: port)
            print(
                """
                siwa check started an Apple ID server at \(facts.server). Configure the app with:
                  client ID (Services ID): \(facts.servicesID)   Team ID: \(facts.teamID)   Key ID: \(facts.keyID)
                  key file: \(facts.keyFile)   issuer: \(facts.issuer)
                  Return URL: the app's redirect_uri is registered on its first start
                """)
            defer { group.cancelAll() }
            try await body(facts.server, facts.adminToken, facts)
        }
    }

    /// demo.json, once the server that writes it listens (bounded: 60 s).
    private static func waitForServer(dataDir: String, port: Int) async throws -> DemoFacts {
        for _ in 0..<600 {
            if let facts = try? DemoFacts.read(fromDataDirectory: URL(fileURLWithPath: dataDir)), facts.server.hasSuffix(":\(port)"),
                (try? await AdminClient(baseURL: facts.server, token: facts.adminToken).send(.get, "/admin/keys", as: KeyRingState.self)) != nil
            {
                return facts
            }
            try await Task.sleep(for: .milliseconds(100))
        }
        throw ValidationError("the Apple ID server did not start within 60 s on port \(port)")
    }
}
