import AppleIDProtocol
import Foundation
import Synchronization

/// Registered clients, read through for a few seconds.
///
/// The token endpoint looks its client up on every request; registry entries change rarely (a
/// console edit), so a short lifetime trades seconds of staleness for a database round trip per
/// request. Grants, codes and tokens are never cached: a revocation must be seen at once.
final class RegistryCache: Sendable {
    private struct Entry {
        let client: RegisteredClient?
        let loadedAt: Date
    }

    private let registry: any RegistryStore
    private let lifetime: TimeInterval
    private let entries = Mutex<[ClientID: Entry]>([:])

    init(registry: any RegistryStore, lifetime: TimeInterval) {
        self.registry = registry
        self.lifetime = lifetime
    }

    func client(_ id: ClientID, now: Date) async throws -> RegisteredClient? {
        if lifetime > 0, let entry = entries.withLock({ $0[id] }), now.timeIntervalSince(entry.loadedAt) < lifetime {
            return entry.client
        }
        let client = try await registry.client(id)
        if lifetime > 0 {
            entries.withLock { entries in
                if entries.count >= 10_000 { entries.removeAll(keepingCapacity: true) }
                entries[id] = Entry(client: client, loadedAt: now)
            }
        }
        return client
    }

    /// Forgets everything: call after changing the registry in this process.
    func invalidate() { entries.withLock { $0.removeAll() } }
}
