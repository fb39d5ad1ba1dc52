import AppleIDProtocol
import Foundation
import HummingbirdBcrypt
import Synchronization

/// Password hashing (bcrypt) and the TOTP second factor.
///
/// bcrypt is deliberately slow, so it runs on a dispatch queue, never on a request's executor.
public enum Credentials {
    public static func hashPassword(_ password: String, cost: UInt8) async -> String {
        await offload { Bcrypt.hash(password, cost: cost) }
    }

    public static func verifyPassword(_ password: String, hash: String) async -> Bool {
        await offload { Bcrypt.verify(password, hash: hash) }
    }

    /// The stored secret's characters (RFC 4648 base32's alphabet).
    public static let storedSecretAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"

    /// The six-digit code an authenticator shows for `secret` at `date`.
    public static func currentCode(secret: String, at date: Date) -> String {
        TOTP.code(key: Array(secret.utf8), step: TOTP.step(at: date))
    }

    /// `secret` as an authenticator app takes it: the codes are HMAC-SHA1 keyed with the UTF-8 bytes
    /// of the stored secret (the convention of HummingbirdOTP, which it used to use), and apps take the key in RFC 4648 base32,
    /// so this is the base32 of those bytes, without padding. (The stored secret is itself base32
    /// text; giving an app that text would make it decode it to another key and show other codes.)
    public static func authenticatorSecret(for secret: String) -> String {
        let alphabet = Array(storedSecretAlphabet)
        var out = ""
        var buffer = 0
        var bits = 0
        for byte in secret.utf8 {
            buffer = (buffer << 8) | Int(byte)
            bits += 8
            while bits >= 5 {
                out.append(alphabet[(buffer >> (bits - 5)) & 31])
                bits -= 5
            }
            buffer &= (1 << bits) - 1
        }
        if bits > 0 { out.append(alphabet[(buffer << (5 - bits)) & 31]) }
        return out
    }

    /// The TOTP time step (RFC 6238: seconds since 1970 / 30) whose code `code` is, among `date`'s
    /// step and up to `window` steps around it; `nil` when it is none of them. Compared in constant
    /// time. The caller records the step so that a code is accepted once.
    static func matchingStep(of code: String, secret: String, at date: Date, window: Int) -> Int64? {
        let trimmed = code.filter { !$0.isWhitespace }
        guard trimmed.count == 6, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) else { return nil }
        let current = Int64((date.timeIntervalSince1970 / 30).rounded(.down))
        var match: Int64?
        for offset in -window...window {
            let step = current + Int64(offset)
            // Every candidate is computed and compared, so the time does not tell which one matched.
            if ConstantTime.equal(currentCode(secret: secret, at: Date(timeIntervalSince1970: TimeInterval(step * 30))), trimmed) {
                match = step
            }
        }
        return match
    }

    /// Checks `password` against a bcrypt hash of no password anyone has, at the cost real hashes use:
    /// run for unknown Apple IDs, so that a wrong Apple ID takes as long as a wrong password and the
    /// time does not tell which Apple IDs exist. Always `false`.
    public static func verifyDecoyPassword(_ password: String, cost: UInt8) async -> Bool {
        let hash = await decoyHash(cost: cost)
        _ = await verifyPassword(password, hash: hash)
        return false
    }

    private static let decoyHashes = Mutex<[UInt8: String]>([:])

    private static func decoyHash(cost: UInt8) async -> String {
        if let hash = decoyHashes.withLock({ $0[cost] }) { return hash }
        let hash = await hashPassword(SystemRandomSource().hex(bytes: 16), cost: cost)
        return decoyHashes.withLock { $0[cost, default: hash] }
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
