import AppleIDProvider

extension MemoryStore: SeedSnapshotStore {
    public func saveSeedSnapshot() async throws {
        let copy = state.withLock { $0 }
        seedSnapshot.withLock { $0 = copy }
    }

    public func hasSeedSnapshot() async throws -> Bool { seedSnapshot.withLock { $0 != nil } }

    public func restoreSeedSnapshot() async throws -> Bool {
        guard var seeded = seedSnapshot.withLock({ $0 }) else { return false }
        state.withLock { current in
            seeded.signingKeys = current.signingKeys
            current = seeded
        }
        return true
    }
}
