import AppleIDStore
import Foundation
import OwnerOnlyFiles

/// The key that seals the signing keys in the database: `SIWA_STORAGE_KEY` (base64 of 32 bytes) when
/// set, else `storage.key` in the data directory, made on the first start (owner-only). Keep it out
/// of the database's backups, or give it through the environment, and a copy of `siwa.sqlite` alone
/// no longer holds the keys that sign id_tokens.
enum StorageKey {
    static let environmentVariable = "SIWA_STORAGE_KEY"

    static func sealer(directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> SecretSealer {
        if let encoded = environment[environmentVariable] {
            guard let bytes = Data(base64Encoded: encoded.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw StorageKeyError("\(environmentVariable) is not base64")
            }
            return try SecretSealer(keyBytes: Array(bytes))
        }
        let file = directory.appendingPathComponent("storage.key")
        if FileManager.default.fileExists(atPath: file.path) {
            guard let text = try? String(contentsOf: file, encoding: .utf8),
                let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines))
            else { throw StorageKeyError("\(file.path) is not a base64 storage key") }
            return try SecretSealer(keyBytes: Array(bytes))
        }
        let bytes = SecretSealer.newKeyBytes()
        try PrivateFiles.create(Data((Data(bytes).base64EncodedString() + "\n").utf8), at: file)
        return try SecretSealer(keyBytes: bytes)
    }
}

struct StorageKeyError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
