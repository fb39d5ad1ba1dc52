import Crypto
import Foundation

/// Seals secrets before they reach a column (AES-256-GCM), so a copy of the database alone does not
/// hold the server's signing keys. The row's identifier is authenticated with the value, so a sealed
/// value cannot be moved to another row.
///
/// Text form: `sealed:v1:<base64 of nonce ‖ ciphertext ‖ tag>`. Values without the prefix were
/// written before sealing was turned on; they are read as they are and sealed by
/// ``SQLStore/sealPlaintextSigningKeys()``.
public struct SecretSealer: Sendable {
    static let prefix = "sealed:v1:"
    let key: SymmetricKey

    /// - Parameter keyBytes: 32 bytes.
    public init(keyBytes: [UInt8]) throws {
        guard keyBytes.count == 32 else { throw SealingError.wrongKeySize(keyBytes.count) }
        key = SymmetricKey(data: keyBytes)
    }

    /// A key for `purpose` derived from the storage key (HKDF-SHA256, `purpose` as its info): a second
    /// secret that needs no storage of its own, and that every instance with the same storage key shares.
    public func derivedKey(purpose: String) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: key, info: Array(purpose.utf8), outputByteCount: 32)
    }

    /// 32 random bytes for a new storage key.
    public static func newKeyBytes() -> [UInt8] {
        SymmetricKey(size: .bits256).withUnsafeBytes { Array($0) }
    }

    public func seal(_ secret: String, boundTo rowID: String) throws -> String {
        let box = try AES.GCM.seal(Array(secret.utf8), using: key, authenticating: Array(rowID.utf8))
        guard let combined = box.combined else { throw SealingError.cannotSeal }
        return Self.prefix + combined.base64EncodedString()
    }

    /// The secret of a sealed value, or the value itself if it was never sealed.
    public func open(_ stored: String, boundTo rowID: String) throws -> String {
        guard stored.hasPrefix(Self.prefix) else { return stored }
        guard let combined = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Array(rowID.utf8))
        else { throw SealingError.cannotOpen(rowID) }
        return String(decoding: plain, as: UTF8.self)
    }

    static func isSealed(_ stored: String) -> Bool { stored.hasPrefix(prefix) }
}

public enum SealingError: Error, Sendable, Hashable, CustomStringConvertible {
    case wrongKeySize(Int)
    case cannotSeal
    /// Wrong storage key, or a damaged or moved value.
    case cannotOpen(String)
    /// Sealed values exist but the store was opened without a storage key.
    case noKey(String)

    public var description: String {
        switch self {
        case .wrongKeySize(let count): "the storage key must be 32 bytes, not \(count)"
        case .cannotSeal: "sealing failed"
        case .cannotOpen(let id): "the sealed secret of \(id) does not open with this storage key"
        case .noKey(let id): "\(id) is sealed and no storage key was given"
        }
    }
}
