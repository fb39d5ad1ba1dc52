import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import ServerTestSupport
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

/// What a later start of `siwa serve` advertises: a URL others can reach, one playground callback,
/// and only the demo Apple IDs that still exist.
@Suite("Later starts: the banner and demo.json tell the truth")
struct LaterStartTests {
    /// A fresh data directory and an engine over its SQLite store, shut down whatever `body` throws.
    static func withFreshServer(seed: String, _ body: (SQLStore, AppleIDProvider, DemoFiles) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-later-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (store, shutdown, provider) = try await TestEngine.freshServer(in: directory, seed: seed)
        do {
            try await body(store, provider, DemoFiles(directory: directory))
        } catch {
            try? await shutdown()
            throw error
        }
        try await shutdown()
    }

    @Test(
        "a wildcard bind (0.0.0.0, ::, [::]) is never the issuer or the base URL: the machine's name is, and the banner says so",
        arguments: ["0.0.0.0", "::", "[::]"])
    func wildcardBind(_ host: String) throws {
        var settings = ServeSettings()
        settings.host = host
        settings.machineName = "devbox.example"
        #expect(settings.baseURL == "http://devbox.example:8080")
        #expect(settings.resolvedIssuer == "http://devbox.example:8080")
        let note = try #require(settings.bindNote)
        #expect(note.contains(host) && note.contains("devbox.example") && note.contains("--issuer"), "\(note)")
        let banner = ServerBootstrap.banner(
            facts: TestEngine.playgroundFacts(baseURL: settings.baseURL, returnURL: ServerOptions.playgroundReturnURL(baseURL: settings.baseURL)),
            options: ServerOptions(host: host, baseURL: settings.baseURL, adminToken: "t"), dataDirectory: "/tmp/x", bindNote: note)
        #expect(banner.contains(note))
        #expect(!banner.contains("http://0.0.0.0") && !banner.contains("http://::") && !banner.contains("http://[::]"))

        settings.issuer = "https://id.example.com"
        #expect(settings.resolvedIssuer == "https://id.example.com", "--issuer wins")
        #expect(settings.baseURL == "http://devbox.example:8080")

        settings.host = "192.168.1.20"
        #expect(settings.baseURL == "http://192.168.1.20:8080", "a named address is reachable as it is")
        #expect(settings.bindNote == nil)
    }

    @Test("each start keeps exactly one playground callback, its own; the developer's Return URLs stay")
    func onePlaygroundCallback() async throws {
        try await Self.withFreshServer(seed: "later-return-urls") { store, provider, files in
            var settings = ServeSettings()
            let (facts, _) = try await ServerBootstrap.prepareDemo(provider: provider, settings: settings, files: files)
            // The developer's own Return URL, and what an earlier version left behind: a wildcard bind's
            // callback, against the server's own rules.
            var client = try #require(try await store.client(facts.servicesID))
            client.returnURLs += ["https://juice.example.com/callback", "http://0.0.0.0:8080/playground/callback"]
            try await store.save(client)

            settings.port = 9090
            let (again, _) = try await ServerBootstrap.prepareDemo(provider: provider, settings: settings, files: files)
            let stored = try #require(try await store.client(facts.servicesID)).returnURLs
            #expect(stored.filter { $0.hasSuffix("/playground/callback") } == ["http://127.0.0.1:9090/playground/callback"], "\(stored)")
            #expect(stored.contains("https://juice.example.com/callback"))
            #expect(stored.contains(DemoSeed.juiceReturnURL))
            #expect(again.returnURLs == stored)

            settings.port = 9090
            let (third, _) = try await ServerBootstrap.prepareDemo(provider: provider, settings: settings, files: files)
            #expect(third.returnURLs == stored, "the same start again changes nothing")
        }
    }

    @Test("a deleted demo Apple ID is no longer listed in demo.json or the banner, nor its password")
    func deletedDemoUser() async throws {
        try await Self.withFreshServer(seed: "later-deleted") { store, provider, files in
            let (facts, _) = try await ServerBootstrap.prepareDemo(provider: provider, settings: ServeSettings(), files: files)
            let robin = try #require(facts.users.last)
            let account = try #require(try await store.account(appleID: robin.appleID))
            try await provider.lifecycle.deleteAccount(accountID: account.id)

            let (again, _) = try await ServerBootstrap.prepareDemo(provider: provider, settings: ServeSettings(), files: files)
            #expect(again.users.map(\.appleID) == [facts.users[0].appleID])
            let banner = ServerBootstrap.banner(facts: again, options: ServerOptions(adminToken: "t"), dataDirectory: "/tmp/siwa")
            #expect(!banner.contains(robin.appleID))
            #expect(!banner.contains(robin.password))
            #expect(banner.contains(facts.users[0].appleID))
        }
    }
}
