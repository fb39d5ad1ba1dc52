import AppleIDProtocol
import AppleIDProvider
import Foundation
import OwnerOnlyFiles

/// The demo facts on disk: `demo.json` for scripts and the `.p8` key written once.
struct DemoFiles {
    let directory: URL

    var factsURL: URL { DemoFacts.fileURL(inDataDirectory: directory) }

    func keyURL(_ keyID: KeyID) -> URL { directory.appendingPathComponent("AuthKey_\(keyID.rawValue).p8") }

    func loadFacts() throws -> DemoFacts? {
        try DemoFacts.read(fromDataDirectory: directory)
    }

    func save(_ facts: DemoFacts) throws {
        try writePrivate(try facts.fileContents(), to: factsURL)
    }

    func readKey(_ keyID: KeyID) throws -> String {
        try String(contentsOf: keyURL(keyID), encoding: .utf8)
    }

    /// Written once: an existing key file is never overwritten.
    func writeKeyOnce(_ pem: String, keyID: KeyID) throws {
        guard !FileManager.default.fileExists(atPath: keyURL(keyID).path) else { return }
        try PrivateFiles.create(Data(pem.utf8), at: keyURL(keyID))
    }

    /// Owner-only from creation: these files hold a private key, TOTP secrets and the admin token.
    private func writePrivate(_ data: Data, to url: URL) throws {
        try PrivateFiles.replace(data, at: url)
    }
}
