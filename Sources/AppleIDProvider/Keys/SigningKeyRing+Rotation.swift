import AppleIDProtocol
import Foundation

extension SigningKeyRing {
    /// Promotes the next key to active, retires the active one and publishes a fresh next key, as
    /// one write of the store. Returns `false` when another instance rotated the same keys first:
    /// nothing is written then, and the ring shows that instance's rotation.
    @discardableResult
    public func rotate(now: Date) async throws -> Bool {
        try await rotate(try await store.signingKeys(), now: now)
    }

    /// Rotates when `schedule` says the keys are due; returns whether this call rotated them. Every
    /// instance may call it: the store lets one of them rotate, the others see the new keys.
    @discardableResult
    func rotateIfDue(now: Date, schedule: KeyRotationSchedule) async throws -> Bool {
        let records = try await store.signingKeys()
        guard schedule.isDue(records, now: now) else { return false }
        return try await rotate(records, now: now)
    }

    /// Rotates the keys as `records` show them: when another instance moved them on since they were
    /// read, the store refuses, so a rotation decided on old keys never becomes a second one.
    private func rotate(_ records: [SigningKeyRecord], now: Date) async throws -> Bool {
        guard let active = records.first(where: { $0.state == .active }) else { throw SigningKeyError.noActiveKey }
        guard let next = records.first(where: { $0.state == .next }) else { throw SigningKeyError.noNextKey }
        let fresh = try await Self.makeRecord(state: .next, factory: keyFactory, random: random, now: now)
        let rotation = SigningKeyRotation(retiring: active.id, promoting: next.id, publishing: fresh, date: now)
        let applied = try await store.rotateSigningKeys(rotation)
        try await reload(now: now)
        return applied
    }

    /// Reads the keys again from the store: what another instance rotated, and retired keys whose
    /// time in `/auth/keys` is over.
    public func reload(now: Date) async throws {
        let fresh = try Self.makeSnapshot(
            try await store.signingKeys(), now: now, retention: retiredKeyRetention, signer: signer, current: activeKey)
        snapshot.withLock { $0 = fresh }
    }
}
