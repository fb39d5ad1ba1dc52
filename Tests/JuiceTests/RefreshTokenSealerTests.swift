import Foundation
import Testing

@testable import JuiceApp

@Suite("Juice seals Apple refresh tokens at rest")
struct RefreshTokenSealerTests {
    @Test("the key is made once beside the database (owner-only) and reused; another key cannot open; clear text reads as is")
    func keyAndRoundTrip() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("juice-sealer-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let sealer = try RefreshTokenSealer.load(directory: directory, environment: [:])
        let keyFile = directory.appendingPathComponent("storage.key").path
        #expect(try FileManager.default.attributesOfItem(atPath: keyFile)[.posixPermissions] as? Int == 0o600)
        let sealed = try #require(try sealer.seal("r0123.0.abcd.token"))
        #expect(sealed.hasPrefix("sealed:v1:") && !sealed.contains("r0123"))
        #expect(try RefreshTokenSealer.load(directory: directory, environment: [:]).open(sealed) == "r0123.0.abcd.token")
        #expect(throws: JuiceError.self) { try RefreshTokenSealer.ephemeral().open(sealed) }
        #expect(try sealer.open("r-written-before-sealing") == "r-written-before-sealing")
        #expect(try sealer.seal(nil) == nil)
        #expect(throws: JuiceError.self) { try RefreshTokenSealer.load(directory: directory, environment: ["JUICE_STORAGE_KEY": "AAAA"]) }
    }
}
