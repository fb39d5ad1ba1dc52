import AppleIDConsole
import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Logging
import NIOCore
import NIOPosix
import RS256OpenSSL
import RS256Signing
import ServerTestSupport
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

@Suite("First start and later starts")
struct StartupTests {
    @Test("the start-up log says which library signs id_tokens")
    func signerLogLine() async throws {
        let server = try await TestEngine.make()
        let lines = RecordingLogHandler.Lines()
        ServerBootstrap.logSigner(of: server.provider, logger: Logger(label: "recorded") { _ in RecordingLogHandler(lines: lines) })
        let line = try #require(lines.all.first { $0.metadata["signer"] != nil })
        #expect(line.metadata["signer"] == server.provider.keyRing.signerName)
        #expect(line.message == "id_tokens are signed by \(server.provider.keyRing.signerName)")
        #expect(server.provider.keyRing.signerName == SwiftCryptoRS256Signer().name, "the engine signs with swift-crypto unless handed another")
        #expect(ServerBootstrap.signer.name == RS256Signers.fastest.name, "siwa serve hands it the fastest of its build")
    }

    @Test("the first start seeds the demo team, writes the .p8 once and demo.json; a later start on another port reuses them")
    func seeding() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-startup-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, shutdown, provider) = try await TestEngine.freshServer(in: directory, seed: "startup")
        let files = DemoFiles(directory: directory)
        var settings = ServeSettings()

        let (facts, keyPEM) = try await ServerBootstrap.prepareDemo(provider: provider, settings: settings, files: files)
        #expect(facts.teamID.rawValue.count == 10)
        #expect(facts.keyID.rawValue.count == 10)
        #expect(facts.users.map(\.realUserStatus) == [2, 1])
        #expect(facts.returnURLs == ["http://127.0.0.1:8080/playground/callback", DemoSeed.juiceReturnURL])
        #expect(
            try await provider.emailSources(teamID: facts.teamID).map(\.value) == [DemoSeed.juiceMailSender],
            "the relay takes Juice's order confirmations out of the box")
        let keyFile = files.keyURL(facts.keyID).path
        #expect(facts.keyFile == keyFile)
        #expect(try String(contentsOfFile: keyFile, encoding: .utf8) == keyPEM)
        let permissions = try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int
        #expect(permissions == 0o600)
        let account = try #require(try await store.account(appleID: facts.users[0].appleID))
        #expect(await Credentials.verifyPassword(facts.users[0].password, hash: account.passwordHash))

        settings.port = 9090
        let (again, againKey) = try await ServerBootstrap.prepareDemo(provider: provider, settings: settings, files: files)
        #expect(again.teamID == facts.teamID)
        #expect(againKey == keyPEM)
        #expect(again.server == "http://127.0.0.1:9090")
        #expect(again.returnURLs == ["http://127.0.0.1:9090/playground/callback", DemoSeed.juiceReturnURL], "one playground callback: this start's")
        #expect(try files.loadFacts() == facts, "a later start rewrites demo.json only once its socket listens (ServerBootstrap.run)")
        #expect(facts.users.allSatisfy { $0.totpSecret?.isEmpty == false }, "demo.json carries each demo user's TOTP secret")

        let banner = ServerBootstrap.banner(facts: again, options: ServerOptions(port: 9090, adminToken: "t"), dataDirectory: directory.path)
        for fact in [again.teamID.rawValue, again.keyID.rawValue, again.servicesID.rawValue, again.users[1].password, "Ctrl-C", keyFile] {
            #expect(banner.contains(fact))
        }
        try await shutdown()
    }

    @Test("--auto-approve: first means the first demo user; an Apple ID that does not exist is refused at start, naming the demo ones")
    func autoApproveFirst() async throws {
        let server = try await TestEngine.make()
        var facts = TestEngine.playgroundFacts(baseURL: "http://x", returnURL: ServerOptions.playgroundReturnURL(baseURL: "http://x"))
        facts.users = [
            .init(appleID: TestEngine.maria.appleID, password: "p", firstName: "M", lastName: "R", email: "m@x", realUserStatus: 2),
            .init(appleID: "robin@example.com", password: "p", firstName: "R", lastName: "U", email: "r@x", realUserStatus: 1),
        ]
        let store = server.provider.store
        #expect(try await ServerBootstrap.autoApproveAppleID("first", facts: facts, store: store) == TestEngine.maria.appleID)
        #expect(try await ServerBootstrap.autoApproveAppleID("robin@example.com", facts: facts, store: store) == "robin@example.com")
        #expect(try await ServerBootstrap.autoApproveAppleID(nil, facts: facts, store: store) == nil)
        do {
            _ = try await ServerBootstrap.autoApproveAppleID("nobody@example.com", facts: facts, store: store)
            Issue.record("an unknown Apple ID was accepted")
        } catch let error as StartupError {
            #expect(
                error.description
                    == "no Apple ID nobody@example.com; the demo ones are maria@example.com, robin@example.com (or add one with `siwa users add`)")
        }
    }

    @Test(
        "out-of-range settings are refused before anything starts",
        arguments: [
            ("port", 99_999), ("port", 0), ("port", -1),
        ])
    func portRange(_ testCase: (String, Int)) {
        var settings = ServeSettings()
        settings.port = testCase.1
        #expect(throws: StartupError.self) { try settings.validate() }
    }

    @Test("retry window and backoff are bounded; the issuer is 'apple' or a URL")
    func otherRanges() throws {
        var settings = ServeSettings()
        try settings.validate()
        settings.deliveryPolicy.deliveryWindow = 0
        #expect(throws: StartupError.self) { try settings.validate() }
        settings.deliveryPolicy.deliveryWindow = 3_600
        settings.deliveryPolicy.maximumDelay = 7_200
        #expect(throws: StartupError.self, "a backoff longer than the window") { try settings.validate() }
        settings.deliveryPolicy.maximumDelay = 60
        settings.issuer = "not a url"
        #expect(throws: StartupError.self) { try settings.validate() }
        settings.issuer = "apple"
        try settings.validate()
    }

    /// A socket listening on a free loopback port, and that port.
    static func listening() async throws -> (any Channel, Int) {
        let channel = try await NIOPosix.ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).get()
        return (channel, try #require(channel.localAddress?.port))
    }

    @Test("a taken port is one clear line, before anything is written")
    func takenPort() async throws {
        let (holder, port) = try await Self.listening()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-port-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var settings = ServeSettings()
        settings.port = port
        settings.dataDirectory = directory.path
        do {
            try await ServerBootstrap.run(settings)
            Issue.record("the server started on a taken port")
        } catch let error as StartupError {
            #expect(error.description == "port \(port) is in use; choose another with --port")
        }
        #expect(!FileManager.default.fileExists(atPath: directory.path), "no data directory, no demo.json")
        try await holder.close()
    }

    @Test("a data directory that cannot be made: one line naming the path and --data-dir")
    func unusableDataDirectory() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-file-\(UUID().uuidString)")
        try Data("x".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let (probe, port) = try await Self.listening()
        try await probe.close()  // a port that was free a moment ago
        var settings = ServeSettings()
        settings.port = port
        settings.dataDirectory = file.path
        do {
            try await ServerBootstrap.run(settings)
            Issue.record("a file was taken for a folder")
        } catch let error as StartupError {
            #expect(error.description.hasPrefix("the data directory \(file.standardizedFileURL.path) cannot be used: it exists and is not a folder"))
            #expect(error.description.contains("--data-dir"))
        }
    }

    @Test("on a shared database every instance keeps its playground callback; only unreachable wildcard ones go")
    func sharedDatabaseCallbacks() {
        let other = "http://127.0.0.1:9091/playground/callback"
        #expect(ServerBootstrap.isStalePlaygroundURL(other, sharedDatabase: false), "one server's SQLite file: earlier starts' callbacks go")
        #expect(!ServerBootstrap.isStalePlaygroundURL(other, sharedDatabase: true), "another instance of the database uses it")
        #expect(ServerBootstrap.isStalePlaygroundURL("http://0.0.0.0:8080/playground/callback", sharedDatabase: true))
        #expect(!ServerBootstrap.isStalePlaygroundURL(DemoSeed.juiceReturnURL, sharedDatabase: false))
    }
}
