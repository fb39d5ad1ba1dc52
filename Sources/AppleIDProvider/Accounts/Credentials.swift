import Foundation
import HummingbirdBcrypt
import HummingbirdOTP

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

    /// The six-digit code an authenticator shows for `secret` at `date`.
    public static func currentCode(secret: String, at date: Date) -> String {
        String(format: "%06d", TOTP(secret: secret).compute(date: date))
    }

    /// Whether `code` is the TOTP of `date`'s step or of up to `window` steps around it.
    public static func verifyCode(_ code: String, secret: String, at date: Date, window: Int) -> Bool {
        let trimmed = code.filter { !$0.isWhitespace }
        guard trimmed.count == 6, trimmed.allSatisfy(\.isASCII), trimmed.allSatisfy(\.isNumber) else { return false }
        return (-window...window).contains { step in
            currentCode(secret: secret, at: date.addingTimeInterval(TimeInterval(step * 30))) == trimmed
        }
    }

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
