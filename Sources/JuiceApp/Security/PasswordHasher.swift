import Foundation
import HummingbirdBcrypt
import Synchronization

/// bcrypt password hashes. bcrypt is slow on purpose, so it runs on a dispatch queue, never on the
/// executor that serves requests.
public struct PasswordHasher: Sendable {
    public let cost: UInt8

    /// - Parameter cost: 12 in production; tests use the minimum (4) to stay fast.
    public init(cost: UInt8 = 12) { self.cost = cost }

    func hash(_ password: String) async -> String {
        let cost = cost
        return await Self.offload { Bcrypt.hash(password, cost: cost) }
    }

    func verify(_ password: String, hash: String) async -> Bool {
        await Self.offload { Bcrypt.verify(password, hash: hash) }
    }

    /// Spends the time of a password check where there is no hash to check (an unknown e-mail, an
    /// account without a password), so the time does not tell which e-mails have accounts. Always
    /// `false`.
    func verifyNothing(_ password: String) async -> Bool {
        let decoy = await decoyHash()
        _ = await verify(password, hash: decoy)
        return false
    }

    private func decoyHash() async -> String {
        if let hash = Self.decoys.withLock({ $0[cost] }) { return hash }
        let hash = await self.hash(SecretToken.random())
        return Self.decoys.withLock { $0[cost, default: hash] }
    }

    private static let decoys = Mutex<[UInt8: String]>([:])

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
