import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import AppleIDStore
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import Testing

@Suite("Key rotation service and `siwa keys rotate`, with one instance and with two on one database")
struct KeyRotationServiceTests {
    static let admin: HTTPFields = [.authorization: "Bearer \(TestServer.adminToken)"]

    struct KeyRingState: Decodable {
        var rotated: Bool?
        var activeKID: String
        var publishedKIDs: [String]
        enum CodingKeys: String, CodingKey {
            case rotated
            case activeKID = "active_kid"
            case publishedKIDs = "published_kids"
        }
    }

    @Test("POST /admin/keys/rotate rotates now and /auth/keys shows it; without the admin token it is refused")
    func adminRotation() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let refused = try await client.execute(uri: "/admin/keys/rotate", method: .post)
            #expect(refused.status == .unauthorized)
            let before = try JSONDecoder().decode(
                KeyRingState.self, from: Data(buffer: try await client.execute(uri: "/admin/keys", method: .get, headers: Self.admin).body))
            #expect(before.rotated == nil)
            #expect(before.publishedKIDs.count == 2)

            let response = try await client.execute(uri: "/admin/keys/rotate", method: .post, headers: Self.admin)
            #expect(response.status == .ok)
            let after = try JSONDecoder().decode(KeyRingState.self, from: Data(buffer: response.body))
            #expect(after.rotated == true)
            #expect(after.activeKID != before.activeKID)
            #expect(before.publishedKIDs.contains(after.activeKID), "the key that signs now was published before")
            #expect(try await DiscoveryTests.publishedKeyIDs(client) == after.publishedKIDs)
            #expect(after.publishedKIDs.count == 3)
        }
    }

    @Test("the periodic key check rotates once the clock passes 30 days, and not before")
    func scheduledByService() async throws {
        let server = try await TestServer.make()
        let first = server.provider.keyRing.activeKeyID
        server.clock.advance(by: 29 * 86_400)
        try await server.provider.rotateSigningKeysIfDue()
        #expect(server.provider.keyRing.activeKeyID == first)
        server.clock.advance(by: 86_400)
        try await server.provider.rotateSigningKeysIfDue()
        #expect(server.provider.keyRing.activeKeyID != first)
        try await server.app.test(.router) { client in
            let published = try await DiscoveryTests.publishedKeyIDs(client)
            #expect(published.contains(first.rawValue), "the retired key is still published")
        }
    }

    @Test("two instances on one SQLite database racing the schedule: one new key, then the same /auth/keys on both")
    func twoInstancesOnOneDatabase() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-rotation-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (storeA, shutdownA) = try await SQLStore.sqlite(path: path, logger: Logger(label: "a"))
        let (storeB, shutdownB) = try await SQLStore.sqlite(path: path, logger: Logger(label: "b"))
        do {
            let clockA = ManualClock(Fixtures.now)
            let clockB = ManualClock(Fixtures.now)
            let a = try await Self.engine(store: storeA, clock: clockA, seed: "a")
            let b = try await Self.engine(store: storeB, clock: clockB, seed: "b")
            #expect(a.keyRing.publishedKeySetJSON == b.keyRing.publishedKeySetJSON)
            clockA.advance(by: 30 * 86_400)
            clockB.advance(by: 30 * 86_400)
            async let checkA: Void = a.rotateSigningKeysIfDue()
            async let checkB: Void = b.rotateSigningKeysIfDue()
            _ = try await (checkA, checkB)
            try await a.rotateSigningKeysIfDue()
            try await b.rotateSigningKeysIfDue()
            let keys = try await storeA.signingKeys()
            #expect(keys.count == 3, "one rotation, not two")
            #expect(keys.map(\.state).sorted { $0.rawValue < $1.rawValue } == [.active, .next, .retired])
            #expect(a.keyRing.activeKeyID == b.keyRing.activeKeyID)
            #expect(a.keyRing.publishedKeySetJSON == b.keyRing.publishedKeySetJSON)
        } catch {
            try await shutdownA()
            try await shutdownB()
            throw error
        }
        try await shutdownA()
        try await shutdownB()
    }

    static func engine(store: SQLStore, clock: ManualClock, seed: String) async throws -> AppleIDProvider {
        try await AppleIDProvider.start(
            configuration: ProviderConfiguration(issuer: TestServer.issuer), storage: .store(store), clock: clock,
            random: SeededRandomSource(seed: seed),
            keyFactory: FixedSigningKeyFactory(pems: Fixtures.signingKeys), logger: Logger(label: seed))
    }
}
