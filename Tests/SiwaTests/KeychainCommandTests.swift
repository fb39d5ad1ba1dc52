import Foundation
import Testing

/// `siwa users keychain` and the two-provider launch check of `siwa authorize --native`, run as the
/// built binary against a `siwa serve` of its own.
@Suite("siwa users keychain and authorize --native --providers", .timeLimit(.minutes(5)))
struct KeychainCommandTests {
    static let appleID = "maria.ruiz@example.com"

    @Test("a saved password for an associated domain is the launch check's answer until removed; then canceled (1001)")
    func keychainVerbs() async throws {
        let server = try await SiwaServer()
        let associated = try await server.run(["apps", "webcredentials", "com.example.juice", "webcredentials:juice.example.com"])
        #expect(associated.status == 0, "\(associated.standardError)")
        let added = try await server.run(
            ["users", "keychain", "add", Self.appleID, "--domain", "juice.example.com", "--user", "maria", "--password", "squeeze-me"])
        #expect(added.status == 0, "\(added.standardError)")
        #expect(!added.standardOutput.contains("squeeze-me"), "the password is not printed back")

        let listed = try await server.run(["users", "keychain", "list", Self.appleID])
        #expect(listed.status == 0, "\(listed.standardError)")
        #expect(listed.standardOutput.contains("\"domain\" : \"juice.example.com\""), "\(listed.standardOutput)")
        #expect(!listed.standardOutput.contains("squeeze-me"))

        let launch = [
            "authorize", "--native", "--bundle-id", "com.example.juice", "--apple-id", Self.appleID, "--existing-only",
            "--providers", "apple-id,password",
        ]
        let password = try await server.run(launch)
        #expect(password.status == 0, "\(password.standardError)")
        #expect(password.standardOutput.contains("\"type\" : \"password\""), "\(password.standardOutput)")
        #expect(password.standardOutput.contains("\"password\" : \"squeeze-me\""), "\(password.standardOutput)")

        let noAppleID = try await server.run(launch + ["--pick", "apple-id"])
        #expect(noAppleID.status == 1)
        #expect(noAppleID.standardError.contains("1001"), "\(noAppleID.standardError)")

        let removed = try await server.run(["users", "keychain", "remove", Self.appleID, "--domain", "juice.example.com", "--user", "maria"])
        #expect(removed.status == 0, "\(removed.standardError)")
        let nothing = try await server.run(launch)
        #expect(nothing.status == 1)
        #expect(nothing.standardError.contains("no existing credential"), "\(nothing.standardError)")
    }
}
