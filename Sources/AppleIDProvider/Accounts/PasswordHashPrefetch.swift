import Synchronization

/// Bcrypt hashes started before the call that stores them: the seeding of a first start draws its
/// made-up passwords in a fixed order (a seeded start gives the same identities) and then creates
/// the accounts one by one; hashing the passwords of one batch at once lets them share the cores.
/// A hash is taken once; an entry nobody takes is dropped with the provider.
final class PasswordHashPrefetch: Sendable {
    private struct Key: Hashable {
        let password: String
        let cost: UInt8
    }
    private let pending = Mutex<[Key: Task<String, Never>]>([:])

    func start(_ passwords: [String], cost: UInt8) {
        pending.withLock { pending in
            for password in passwords where pending[Key(password: password, cost: cost)] == nil {
                pending[Key(password: password, cost: cost)] = Task { await Credentials.hashPassword(password, cost: cost) }
            }
        }
    }

    /// The started hash of `password`, or one made now.
    func hash(_ password: String, cost: UInt8) async -> String {
        if let started = pending.withLock({ $0.removeValue(forKey: Key(password: password, cost: cost)) }) {
            return await started.value
        }
        return await Credentials.hashPassword(password, cost: cost)
    }
}

extension AppleIDProvider {
    /// Starts hashing `passwords` now (all at once), for accounts created next with them.
    public func prefetchPasswordHashes(_ passwords: [String]) {
        passwordHashes.start(passwords, cost: configuration.passwordHashCost)
    }

    /// The bcrypt hash of `password` at the configured cost (a prefetched one when there is one).
    package func hashPassword(_ password: String) async -> String {
        await passwordHashes.hash(password, cost: configuration.passwordHashCost)
    }
}
