import AppleIDStore
import Foundation
import Testing

@testable import AppleIDServer
@testable import AppleIDServerApp

@Suite("The storage key that seals signing keys")
struct StorageKeyTests {
    @Test("made once in the data directory (owner-only), then reused; SIWA_STORAGE_KEY wins; a bad one is refused")
    func sources() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("StorageKeyTests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }

        let first = try StorageKey.sealer(directory: directory, environment: [:])
        let file = directory.appendingPathComponent("storage.key").path
        #expect(try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int == 0o600)
        let again = try StorageKey.sealer(directory: directory, environment: [:])
        let sealed = try first.seal("secret", boundTo: "row")
        #expect(try again.open(sealed, boundTo: "row") == "secret")

        let other = Data(SecretSealer.newKeyBytes()).base64EncodedString()
        let fromEnvironment = try StorageKey.sealer(directory: directory, environment: ["SIWA_STORAGE_KEY": other])
        #expect(throws: SealingError.cannotOpen("row")) { try fromEnvironment.open(sealed, boundTo: "row") }
        #expect(throws: StorageKeyError.self) { try StorageKey.sealer(directory: directory, environment: ["SIWA_STORAGE_KEY": "not base64!"]) }
        #expect(throws: SealingError.wrongKeySize(3)) { try StorageKey.sealer(directory: directory, environment: ["SIWA_STORAGE_KEY": "AAAA"]) }
    }
}
