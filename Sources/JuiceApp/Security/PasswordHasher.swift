import Foundation
import HummingbirdBcrypt

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

    private static func offload<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            DispatchQueue.global(qos: .userInitiated).async { continuation.resume(returning: work()) }
        }
    }
}
