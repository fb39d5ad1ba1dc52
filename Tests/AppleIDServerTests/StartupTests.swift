import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Logging
import Testing

@testable import AppleIDServer

@Suite("First start and later starts")
struct StartupTests {
    @Test("the first start seeds the demo team, writes the .p8 once and demo.json; a later start on another port reuses them")
    func seeding() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-startup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, shutdown) = try await SQLStore.sqlite(path: directory.appendingPathComponent("siwa.sqlite").path, logger: Logger(label: "test"))
        var configuration = ProviderConfiguration(issuer: "http://127.0.0.1:8080")
        configuration.passwordHashCost = 4
        let provider = try await AppleIDProvider.start(
            configuration: configuration, store: store, clock: ManualClock(Fixtures.now), random: SeededRandomSource(seed: "startup"),
            keyFactory: FixedSigningKeyFactory(pems: Fixtures.signingKeys))
        let files = DemoFiles(directory: directory)
        var settings = ServeSettings()

        let (facts, keyPEM) = try await ServerBootstrap.prepareDemo(provider: provider, settings: settings, files: files)
        #expect(facts.teamID.rawValue.count == 10)
        #expect(facts.keyID.rawValue.count == 10)
        #expect(facts.users.map(\.realUserStatus) == [2, 1])
        #expect(facts.returnURLs == ["http://127.0.0.1:8080/playground/callback", DemoSeed.juiceReturnURL])
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
        #expect(
            again.returnURLs == ["http://127.0.0.1:8080/playground/callback", DemoSeed.juiceReturnURL, "http://127.0.0.1:9090/playground/callback"])
        #expect(try files.loadFacts() == again)

        let banner = ServerBootstrap.banner(facts: again, options: ServerOptions(port: 9090, adminToken: "t"), dataDirectory: directory.path)
        for fact in [again.teamID.rawValue, again.keyID.rawValue, again.servicesID.rawValue, again.users[1].password, "Ctrl-C", keyFile] {
            #expect(banner.contains(fact))
        }
        try await shutdown()
    }

    @Test("--auto-approve first means the first demo user")
    func autoApproveFirst() throws {
        let facts = TestServer.playgroundFacts(baseURL: "http://x")
        var withUsers = facts
        withUsers.users = [.init(appleID: "a@b.c", password: "p", firstName: "A", lastName: "B", email: "a@b.c", realUserStatus: 2)]
        #expect(try ServerBootstrap.autoApproveAppleID("first", facts: withUsers) == "a@b.c")
        #expect(try ServerBootstrap.autoApproveAppleID("x@y.z", facts: withUsers) == "x@y.z")
        #expect(try ServerBootstrap.autoApproveAppleID(nil, facts: withUsers) == nil)
    }
}
