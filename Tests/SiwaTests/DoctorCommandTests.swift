import Crypto
import Foundation
import SignInWithApple
import Testing

@testable import siwa

/// `siwa doctor` run as the built binary: a `.p8` that does not load is named by the kit's
/// ``PrivateKeyError``, the same words the library says when the key is passed to it.
@Suite("siwa doctor names the key file's mistake", .timeLimit(.minutes(5)))
struct DoctorCommandTests {
    /// Runs `siwa doctor` on a key file holding `contents`; returns its exit status and output.
    static func doctor(keyFile contents: String) async throws -> SiwaFixtures.Run {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-doctor-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("AuthKey_KEY1234567.p8").path
        try Data(contents.utf8).write(to: URL(fileURLWithPath: path))
        return try await SiwaFixtures.run([
            "doctor", "--team-id", "TEAM123456", "--key-id", "KEY1234567", "--key", path, "--client-id", "com.example.app",
        ])
    }

    @Test("a .p8 pasted from an environment variable (\\n for line breaks) is named as such, not as a wrong key type")
    func escapedNewlines() async throws {
        let pem = P256.Signing.PrivateKey().pemRepresentation.replacingOccurrences(of: "\n", with: #"\n"#)
        let run = try await Self.doctor(keyFile: pem)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("✗ key file: \(PrivateKeyError.escapedNewlines)"), "\(run.standardOutput)")
    }

    @Test("a public key is named as a public key, with what to pass instead")
    func publicKey() async throws {
        let run = try await Self.doctor(keyFile: P256.Signing.PrivateKey().publicKey.pemRepresentation)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("✗ key file: \(PrivateKeyError.publicKey)"), "\(run.standardOutput)")
    }

    @Test("Apple's own .p8 passes the key file check")
    func validKey() async throws {
        let run = try await Self.doctor(keyFile: P256.Signing.PrivateKey().pemRepresentation)
        #expect(run.standardOutput.contains("✓ key file: a PKCS#8 PEM holding an EC P-256 private key"), "\(run.standardOutput)")
    }
}

/// `siwa doctor` on a machine without a button font package names the package.
@Suite("siwa doctor names a missing button font package")
struct DoctorFontTests {
    @Test("without fonts-noto-cjk, doctor says which package to install and what its absence does")
    func missingCJK() {
        let notes = DoctorOptions.buttonFontNotes(fileExists: { !$0.contains("NotoSansCJK") })
        #expect(notes.count == 1)
        #expect(notes.first?.contains("fonts-noto-cjk") == true, "\(notes)")
        #expect(notes.first?.contains("503") == true, "\(notes)")
    }

    @Test("with every font installed, there is nothing to say")
    func allInstalled() {
        #expect(DoctorOptions.buttonFontNotes(fileExists: { _ in true }).isEmpty)
    }
}
