import AppleIDMemoryStore
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Logging
import Testing

@Suite("Signing key rotation on a schedule, by several engines on one store")
struct SigningKeyRotationTests {
    static let day: TimeInterval = 86_400

    /// An engine over `store` with its own clock, as one server instance.
    static func engine(on store: MemoryStore, clock: ManualClock, seed: String) async throws -> AppleIDProvider {
        try await AppleIDProvider.start(
            configuration: ProviderConfiguration(issuer: "https://id.example.com"), storage: .store(store), clock: clock,
            random: SeededRandomSource(seed: seed), keyFactory: FixedSigningKeyFactory(pems: ProviderHarness.keys), logger: Logger(label: "test"))
    }

    @Test("the keys rotate after 30 days, not before: the key published ahead signs, the old one stays 7 days")
    func scheduledRotation() async throws {
        let clock = ManualClock(ProviderHarness.now)
        let engine = try await Self.engine(on: MemoryStore(), clock: clock, seed: "a")
        let first = engine.keyRing.activeKeyID
        let next = try #require(engine.keyRing.publishedKeyIDs.first { $0 != first })

        clock.advance(by: 30 * Self.day - 1)
        try await engine.rotateSigningKeysIfDue()
        #expect(engine.keyRing.activeKeyID == first, "one second early")

        clock.advance(by: 1)
        try await engine.rotateSigningKeysIfDue()
        #expect(engine.keyRing.activeKeyID == next)
        #expect(engine.keyRing.publishedKeyIDs.count == 3)
        #expect(engine.keyRing.publishedKeyIDs.contains(first), "the retired key still verifies what it signed")

        clock.advance(by: 7 * Self.day - 1)
        try await engine.rotateSigningKeysIfDue()
        #expect(engine.keyRing.publishedKeyIDs.contains(first))
        clock.advance(by: 1)
        try await engine.rotateSigningKeysIfDue()
        #expect(!engine.keyRing.publishedKeyIDs.contains(first), "gone after 7 days")
        #expect(engine.keyRing.publishedKeyIDs.count == 2)
        #expect(engine.keyRing.activeKeyID == next)
    }

    @Test("a next key younger than the publication lead does not sign yet, even when the interval is over")
    func publicationLead() {
        let schedule = KeyRotationSchedule()
        let now = ProviderHarness.now
        let active = SigningKeyRecord(id: "a", privateKeyPEM: "", state: .active, createdAt: now, activatedAt: now)
        let fresh = SigningKeyRecord(id: "n", privateKeyPEM: "", state: .next, createdAt: now.addingTimeInterval(30 * Self.day - 3600))
        let due = now.addingTimeInterval(30 * Self.day)
        #expect(!schedule.isDue([active, fresh], now: due))
        #expect(schedule.isDue([active, fresh], now: due.addingTimeInterval(Self.day - 3600)))
        var aged = fresh
        aged.createdAt = now
        #expect(schedule.isDue([active, aged], now: due))
    }

    @Test("two engines on one store racing: one rotates, and both publish the same keys after their check")
    func twoEnginesRacing() async throws {
        let store = MemoryStore()
        let clockA = ManualClock(ProviderHarness.now)
        let clockB = ManualClock(ProviderHarness.now)
        let a = try await Self.engine(on: store, clock: clockA, seed: "a")
        let b = try await Self.engine(on: store, clock: clockB, seed: "b")
        #expect(a.keyRing.publishedKeySetJSON == b.keyRing.publishedKeySetJSON, "the second start reuses the first one's keys")
        let before = a.keyRing.activeKeyID

        clockA.advance(by: 30 * Self.day)
        clockB.advance(by: 30 * Self.day)
        async let rotatedByA: Void = a.rotateSigningKeysIfDue()
        async let rotatedByB: Void = b.rotateSigningKeysIfDue()
        _ = try await (rotatedByA, rotatedByB)
        try await a.rotateSigningKeysIfDue()
        try await b.rotateSigningKeysIfDue()

        let keys = try await store.signingKeys()
        #expect(keys.count == 3, "one new key, not two")
        #expect(keys.filter { $0.state == .active }.count == 1)
        #expect(a.keyRing.activeKeyID != before)
        #expect(a.keyRing.activeKeyID == b.keyRing.activeKeyID)
        #expect(a.keyRing.publishedKeySetJSON == b.keyRing.publishedKeySetJSON)
    }

    @Test("a rotation made now by one engine is published by the other at its next check")
    func manualRotationSeenElsewhere() async throws {
        let store = MemoryStore()
        let clock = ManualClock(ProviderHarness.now)
        let a = try await Self.engine(on: store, clock: clock, seed: "a")
        let b = try await Self.engine(on: store, clock: clock, seed: "b")
        #expect(try await a.rotateSigningKeys())
        #expect(b.keyRing.activeKeyID != a.keyRing.activeKeyID, "b has not looked yet")
        try await b.rotateSigningKeysIfDue()
        #expect(b.keyRing.activeKeyID == a.keyRing.activeKeyID)
        #expect(b.keyRing.publishedKeySetJSON == a.keyRing.publishedKeySetJSON)
    }
}
