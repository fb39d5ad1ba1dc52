import AppleIDProtocol
import AppleIDProvider
import Foundation
import OwnerOnlyFiles
import ServerTestSupport
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

/// From the first security review: development mode by bind, files at rest. Secure cookies, the
/// third: `Tests/AppleIDServerTests/Startup/SecureCookieTests`.
@Suite("Start-up defaults and files at rest")
struct StartupDefaultsTests {
    @Test("development mode and the playground default to on for loopback binds only")
    func developmentModeByBind() {
        var settings = ServeSettings()
        for (host, expected) in [
            ("127.0.0.1", true), ("localhost", true), ("::1", true), ("127.0.0.2", true), ("0.0.0.0", false), ("192.168.1.5", false),
            ("example.com", false), ("127.0.0.1.example.com", false),
        ] {
            settings.host = host
            #expect(settings.resolvedDevelopmentMode == expected, "\(host)")
            #expect(settings.resolvedPlayground == expected, "\(host)")
        }
        settings.host = "0.0.0.0"
        settings.developmentMode = true
        settings.playground = true
        #expect(settings.resolvedDevelopmentMode && settings.resolvedPlayground, "explicitly on stays on")
        settings.host = "127.0.0.1"
        settings.developmentMode = false
        #expect(!settings.resolvedDevelopmentMode, "explicitly off stays off")
    }

    @Test("with development mode off the banner says how to get a demo user's code")
    func bannerWithoutDevelopmentMode() {
        let facts = TestEngine.playgroundFacts(
            baseURL: "http://0.0.0.0:8080", returnURL: ServerOptions.playgroundReturnURL(baseURL: "http://0.0.0.0:8080"))
        let off = ServerBootstrap.banner(
            facts: facts, options: ServerOptions(host: "0.0.0.0", developmentMode: false, adminToken: "t"), dataDirectory: ".siwa")
        #expect(off.contains("siwa users code <Apple ID>"))
        #expect(off.contains("totp_secret in demo.json"))
        #expect(off.contains("playground:        off"))
    }

    @Test("the data directory is 0700 and every file the server writes there is 0600 from its creation")
    func filesAtRest() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-perm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent(".siwa")
        let previous = umask(0o022)  // the usual umask: files 0644, folders 0755 unless asked otherwise
        defer { umask(previous) }
        try PrivateFiles.makeDirectory(directory)
        _ = try StorageKey.sealer(directory: directory, environment: [:])
        let files = DemoFiles(directory: directory)
        try files.save(
            TestEngine.playgroundFacts(
                baseURL: "http://127.0.0.1:8080", returnURL: ServerOptions.playgroundReturnURL(baseURL: "http://127.0.0.1:8080")))
        try files.writeKeyOnce(Fixtures.developerKey, keyID: TestEngine.keyID)
        try PrivateFiles.touch(directory.appendingPathComponent("siwa.sqlite"))

        func mode(_ url: URL) throws -> Int { try #require(FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? Int) }
        #expect(try mode(directory) == 0o700)
        for name in ["storage.key", "demo.json", "AuthKey_\(TestEngine.keyID.rawValue).p8", "siwa.sqlite"] {
            #expect(try mode(directory.appendingPathComponent(name)) == 0o600, "\(name)")
        }
        #expect(throws: PrivateFileError.self, "an existing file (or a planted symlink) is never written through") {
            try PrivateFiles.create(Data("x".utf8), at: directory.appendingPathComponent("storage.key"))
        }
        // An existing folder that others can enter is narrowed.
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory.path)
        try PrivateFiles.makeDirectory(directory)
        #expect(try mode(directory) == 0o700)
    }
}
