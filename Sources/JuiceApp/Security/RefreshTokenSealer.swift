import Crypto
import Foundation
import OwnerOnlyFiles

/// Seals Apple refresh tokens before they reach Juice's database (AES-256-GCM): a copy of
/// `juice.sqlite` alone cannot revoke or use anyone's Sign in with Apple authorization.
///
/// Text form `sealed:v1:<base64 of nonce ‖ ciphertext ‖ tag>`; a value without the prefix (written
/// before sealing) is read as it is.
public struct RefreshTokenSealer: Sendable {
    static let prefix = "sealed:v1:"
    /// Authenticated with every token, so a sealed value is only ever read as a refresh token.
    static let purpose = Array("juice-apple-refresh-token".utf8)
    let key: SymmetricKey

    /// - Parameter keyBytes: 32 bytes.
    public init(keyBytes: [UInt8]) throws {
        guard keyBytes.count == 32 else { throw JuiceError.badStorageKey("the storage key must be 32 bytes, not \(keyBytes.count)") }
        key = SymmetricKey(data: keyBytes)
    }

    /// A sealer with a new random key: for in-memory databases, which do not outlive the process.
    public static func ephemeral() -> RefreshTokenSealer {
        RefreshTokenSealer(key: SymmetricKey(size: .bits256))
    }

    private init(key: SymmetricKey) { self.key = key }

    /// The key of `<directory>/storage.key` (made once, `0600` from its first byte, in a `0700`
    /// folder), or of `JUICE_STORAGE_KEY` (base64 of 32 bytes) when set.
    public static func load(directory: URL, environment: [String: String] = ProcessInfo.processInfo.environment) throws -> RefreshTokenSealer {
        if let encoded = environment["JUICE_STORAGE_KEY"] {
            guard let bytes = Data(base64Encoded: encoded.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw JuiceError.badStorageKey("JUICE_STORAGE_KEY is not base64")
            }
            return try RefreshTokenSealer(keyBytes: Array(bytes))
        }
        let file = directory.appendingPathComponent("storage.key")
        if let text = try? String(contentsOf: file, encoding: .utf8) {
            guard let bytes = Data(base64Encoded: text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw JuiceError.badStorageKey("\(file.path) is not a base64 storage key")
            }
            return try RefreshTokenSealer(keyBytes: Array(bytes))
        }
        let key = SymmetricKey(size: .bits256)
        let bytes = key.withUnsafeBytes { Array($0) }
        try PrivateFiles.makeDirectory(directory)
        try PrivateFiles.create(Data((Data(bytes).base64EncodedString() + "\n").utf8), at: file)
        return RefreshTokenSealer(key: key)
    }

    func seal(_ token: String?) throws -> String? {
        guard let token else { return nil }
        let box = try AES.GCM.seal(Array(token.utf8), using: key, authenticating: Self.purpose)
        guard let combined = box.combined else { throw JuiceError.badStorageKey("sealing failed") }
        return Self.prefix + combined.base64EncodedString()
    }

    func open(_ stored: String?) throws -> String? {
        guard let stored, stored.hasPrefix(Self.prefix) else { return stored }
        guard let combined = Data(base64Encoded: String(stored.dropFirst(Self.prefix.count))),
            let box = try? AES.GCM.SealedBox(combined: combined),
            let plain = try? AES.GCM.open(box, using: key, authenticating: Self.purpose)
        else { throw JuiceError.badStorageKey("a stored refresh token does not open with this storage key") }
        return String(decoding: plain, as: UTF8.self)
    }

    /// The account with its refresh token opened.
    func opened(_ account: Account) throws -> Account {
        var opened = account
        opened.appleRefreshToken = try open(account.appleRefreshToken)
        return opened
    }
}
