import Crypto
import Foundation

/// Time-based one-time passwords (RFC 6238) over HMAC-SHA-1, as authenticator apps compute them:
/// HOTP (RFC 4226 §5.3) of the number of 30-second steps since 1970. Written here, over swift-crypto's
/// HMAC, so that the engine links no HTTP framework (HummingbirdOTP brings Hummingbird along).
enum TOTP {
    /// RFC 6238 §4.1: X, the time step in seconds.
    static let stepSeconds: Int64 = 30

    /// The time step `date` falls in (RFC 6238 §4.2: T = floor(unix time / X)).
    static func step(at date: Date) -> Int64 {
        Int64((date.timeIntervalSince1970 / Double(stepSeconds)).rounded(.down))
    }

    /// The `digits`-digit code of `key` for time step `step`, zero-padded.
    static func code(key: [UInt8], step: Int64, digits: Int = 6) -> String {
        let counter = withUnsafeBytes(of: UInt64(bitPattern: step).bigEndian) { Array($0) }
        let mac = Array(HMAC<Insecure.SHA1>.authenticationCode(for: counter, using: SymmetricKey(data: key)))
        // RFC 4226 §5.4, dynamic truncation: 31 bits at the offset the last nibble names.
        let offset = Int(mac[mac.count - 1] & 0x0f)
        let truncated =
            (UInt32(mac[offset] & 0x7f) << 24) | (UInt32(mac[offset + 1]) << 16) | (UInt32(mac[offset + 2]) << 8) | UInt32(mac[offset + 3])
        let modulus = (0..<digits).reduce(UInt64(1)) { power, _ in power * 10 }
        let value = String(UInt64(truncated) % modulus)
        return String(repeating: "0", count: max(0, digits - value.count)) + value
    }
}
