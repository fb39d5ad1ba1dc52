import AppleIDProtocol
import Crypto
import Foundation
import Testing
import _CryptoExtras

/// `siwa verify` run as the built binary: the token from an argument, standard input (`-`) or a
/// file (`@path`), and `--leeway`. Keys come from a JWKS file, time from `--at`: no network, no clock.
@Suite("siwa verify reads the token from an argument, standard input or a file")
struct VerifyCommandTests {
    static let now = 1_700_000_000
    /// `Tests/Fixtures/rsa/test-key-1.pem`: made at run time, the key took a thread every test shares.
    static let key = try! _RSA.Signing.PrivateKey(
        pemRepresentation: String(
            contentsOf: URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
                .appendingPathComponent("Fixtures/rsa/test-key-1.pem"), encoding: .utf8))

    /// A fresh directory with `jwks.json` and `token.jwt` (ending in a newline, as `echo` writes it).
    struct Fixture {
        let directory: URL
        let token: String
        var jwksPath: String { directory.appendingPathComponent("jwks.json").path }
        var tokenPath: String { directory.appendingPathComponent("token.jwt").path }

        init(expiresAt: Int = VerifyCommandTests.now + 600, issuer: String = "https://appleid.apple.com") throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-verify-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            token = SiwaFixtures.token(
                claims: [
                    "iss": issuer, "aud": "com.example.app", "sub": "001234.abc.0001", "iat": VerifyCommandTests.now - 700,
                    "exp": expiresAt,
                ], key: VerifyCommandTests.key, kid: "k1")
            try Data(SiwaFixtures.jwks(VerifyCommandTests.key, kid: "k1").utf8).write(to: URL(fileURLWithPath: jwksPath))
            try Data((token + "\n").utf8).write(to: URL(fileURLWithPath: tokenPath))
        }

        func arguments(_ token: String, _ extra: [String] = []) -> [String] {
            ["verify", token, "--audience", "com.example.app", "--jwks", jwksPath, "--at", String(VerifyCommandTests.now)] + extra
        }
    }

    @Test("@path reads the token from a file (a trailing newline is fine)")
    func tokenFromFile() async throws {
        let fixture = try Fixture()
        let run = try await SiwaFixtures.run(fixture.arguments("@" + fixture.tokenPath))
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("subject: 001234.abc.0001"))
    }

    @Test("- reads the token from standard input")
    func tokenFromStandardInput() async throws {
        let fixture = try Fixture()
        let run = try await SiwaFixtures.run(fixture.arguments("-"), standardInput: fixture.token + "\n")
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("subject: 001234.abc.0001"))
    }

    @Test("--leeway widens the tolerated clock difference")
    func leeway() async throws {
        let fixture = try Fixture(expiresAt: Self.now - 100)
        let refused = try await SiwaFixtures.run(fixture.arguments(fixture.token))
        #expect(refused.status == 1)
        let accepted = try await SiwaFixtures.run(fixture.arguments(fixture.token, ["--leeway", "120"]))
        #expect(accepted.status == 0, "\(accepted.standardError)")
    }
}

extension VerifyCommandTests {
    @Test("an unreadable @path is a usage error (exit 2) that names the file")
    func missingFile() async throws {
        let fixture = try Fixture()
        let run = try await SiwaFixtures.run(fixture.arguments("@" + fixture.directory.appendingPathComponent("missing.jwt").path))
        #expect(run.status == 2)
        #expect(run.standardError.contains("cannot read the token file"))
    }

    @Test("a negative --leeway is a usage error")
    func negativeLeeway() async throws {
        let fixture = try Fixture()
        let run = try await SiwaFixtures.run(fixture.arguments(fixture.token, ["--leeway", "-1"]))
        #expect(run.status == 2)
    }

    @Test("--jwks with a token from another issuer and no --issuer is a usage error that names the --issuer to pass")
    func jwksForeignIssuer() async throws {
        let fixture = try Fixture(issuer: "http://127.0.0.1:9")
        let refused = try await SiwaFixtures.run(fixture.arguments(fixture.token))
        #expect(refused.status == 2, "\(refused.standardError)")
        #expect(refused.standardError.contains("pass --issuer http://127.0.0.1:9"), "\(refused.standardError)")
        let accepted = try await SiwaFixtures.run(fixture.arguments(fixture.token, ["--issuer", "http://127.0.0.1:9"]))
        #expect(accepted.status == 0, "\(accepted.standardError)")
    }
}
