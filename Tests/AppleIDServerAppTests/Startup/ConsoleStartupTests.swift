import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDStore
import Foundation
import Logging
import ServerTestSupport
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

@Suite("The demo developer of the console")
struct ConsoleStartupTests {
    @Test("the first start seeds a demo developer of the demo team, prints it and writes it to demo.json; a demo.json without one gets one")
    func demoDeveloper() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-console-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let (_, shutdown, provider) = try await TestEngine.freshServer(in: directory, seed: "console")
        let files = DemoFiles(directory: directory)
        let (facts, _) = try await ServerBootstrap.prepareDemo(provider: provider, settings: ServeSettings(), files: files)
        let developer = try #require(facts.developer)
        #expect(try files.loadFacts()?.developer == developer)
        guard case .passed(let signIn) = try await provider.signInDeveloper(email: developer.email, password: developer.password) else {
            Issue.record("the demo developer cannot sign in")
            return
        }
        #expect(signIn.session.teamID == facts.teamID)
        let banner = ServerBootstrap.banner(facts: facts, options: ServerOptions(port: 8080, adminToken: "t"), dataDirectory: directory.path)
        #expect(banner.contains("http://127.0.0.1:8080/console"))
        #expect(banner.contains("\(developer.email)  password: \(developer.password)"))

        // A demo.json written before the console has no developer and still loads.
        var older = facts
        older.developer = nil
        try files.save(older)
        #expect(!(try String(contentsOf: files.factsURL, encoding: .utf8)).contains("developer"))
        #expect(try files.loadFacts() == older)
        try await shutdown()
    }
}
