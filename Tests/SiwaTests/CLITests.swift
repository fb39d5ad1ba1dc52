import AppleIDProtocol
import Foundation
import Testing

@testable import siwa

/// Issue 14: the `siwa` binary's messages name the real problem. These run the built binary.
@Suite("siwa command line: messages that name the problem", .timeLimit(.minutes(5)))
struct CLITests {
    @Test(
        "each mistake gets one line that names it, and exit 1",
        arguments: [
            (["users", "lst", "--data-dir", ".siwa"], "siwa users has no verb 'lst'. Did you mean 'list'?"),
            (["clock", "rest"], "siwa clock has no verb 'rest'. Did you mean 'reset'?"),
            (["users", "add", "not-an-email", "--password", "x"], "not-an-email is not an e-mail address"),
            (
                ["secret", "--team-id", "T", "--key-id", "K", "--key", "/nonexistent/AuthKey.p8", "--client-id", "c"],
                "cannot read the key file /nonexistent/AuthKey.p8: there is no such file"
            ),
            (
                [
                    "credential-state", "--user", "robin.unknown@example.com", "--client-id", "c", "--server", "http://127.0.0.1:9", "--admin-token",
                    "t",
                ],
                "robin.unknown@example.com is an Apple ID, not a user identifier (sub)"
            ),
            (
                ["users", "list", "--server", "http://127.0.0.1:9", "--admin-token", "t"],
                "cannot reach http://127.0.0.1:9: connection refused (is `siwa serve` running there?)"
            ),
            (["serve", "--port", "99999"], "--port 99999 is not a port: choose one from 1 to 65535"),
            // Issue 26: one reader for options, SIWA_* and the file; its errors name where the value was given.
            (["serve", "--log-level", "loud"], "siwa serve: --log-level loud is not a log level"),
            (["serve", "--config", "/nonexistent/siwa.yaml"], "cannot read the configuration file /nonexistent/siwa.yaml: there is no such file"),
        ])
    func messages(_ testCase: ([String], String)) async throws {
        #expect(FileManager.default.isExecutableFile(atPath: SiwaFixtures.siwaURL.path), "build siwa first: swift build --build-tests")
        let run = try await SiwaFixtures.run(testCase.0)
        let (status, output) = (run.status, run.standardOutput + run.standardError)
        #expect(status == 1)
        #expect(output.contains(testCase.1), "\(output)")
        #expect(!output.contains("Usage:"), "a mistake is not a usage question")
        #expect(!output.contains(")) (errno"))
    }

    @Test("--version prints the version kept in SiwaVersion, and exits 0")
    func version() async throws {
        let run = try await SiwaFixtures.run(["--version"])
        #expect(run.status == 0, "\(run.standardError)")
        let printed = run.standardOutput.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(printed.wholeMatch(of: #/[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.]+)?/#) != nil, "\(printed)")
        #expect(printed == SiwaVersion.current)
    }

    @Test("verify: a token from another issuer names it and the --base-url to pass, instead of asking Apple")
    func verifyForeignIssuer() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let token = SiwaFixtures.token(
            claims: ["iss": "http://127.0.0.1:9", "aud": "com.example.app", "sub": "001.a.1", "iat": 1_700_000_000, "exp": 1_700_000_600],
            key: VerifyCommandTests.key, kid: "k1")
        let foreign = try await SiwaFixtures.run(["verify", token, "--audience", "com.example.app", "--data-dir", directory.path])
        #expect(foreign.status == 2)
        #expect(foreign.standardError.contains("this token was issued by http://127.0.0.1:9; pass --base-url http://127.0.0.1:9"))

        // The local server of --data-dir issued it: its keys are asked for (it is not running here).
        let facts = DemoFacts(
            server: "http://127.0.0.1:9", issuer: "http://127.0.0.1:9", teamID: "TEAM123456", keyID: "KEY1234567", keyFile: "AuthKey.p8",
            bundleID: "com.example.app", servicesID: "com.example.app.web", returnURLs: [], users: [], adminToken: "token")
        try facts.fileContents().write(to: DemoFacts.fileURL(inDataDirectory: directory))
        let local = try await SiwaFixtures.run(["verify", token, "--audience", "com.example.app", "--data-dir", directory.path])
        #expect(local.status == 1)
        #expect(local.standardError.contains("127.0.0.1:9"))
        #expect(!local.standardError.contains("appleid.apple.com"))
    }
}
