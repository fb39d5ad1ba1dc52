import AppleIDMemoryStore
import AppleIDProtocol
import Foundation
import Testing

@testable import AppleIDProvider

@Suite("Registry cache of the token endpoint")
struct RegistryCacheTests {
    static let now = Date(timeIntervalSince1970: 1_795_240_800)

    static func client(returnURL: String) -> RegisteredClient {
        RegisteredClient(id: "com.a.web", kind: .service, teamID: "TEAMAAAAAA", groupID: "com.a", returnURLs: [returnURL])
    }

    @Test("a changed client is seen after the lifetime, or at once after invalidate")
    func staleness() async throws {
        let store = MemoryStore()
        let cache = RegistryCache(registry: store, lifetime: 5)
        try await store.save(Self.client(returnURL: "https://a/1"))
        #expect(try await cache.client("com.a.web", now: Self.now)?.returnURLs == ["https://a/1"])

        try await store.save(Self.client(returnURL: "https://a/2"))
        #expect(try await cache.client("com.a.web", now: Self.now.addingTimeInterval(4))?.returnURLs == ["https://a/1"])
        #expect(try await cache.client("com.a.web", now: Self.now.addingTimeInterval(5))?.returnURLs == ["https://a/2"])

        try await store.save(Self.client(returnURL: "https://a/3"))
        cache.invalidate()
        #expect(try await cache.client("com.a.web", now: Self.now.addingTimeInterval(6))?.returnURLs == ["https://a/3"])
    }

    @Test("lifetime 0 never caches")
    func disabled() async throws {
        let store = MemoryStore()
        let cache = RegistryCache(registry: store, lifetime: 0)
        try await store.save(Self.client(returnURL: "https://a/1"))
        _ = try await cache.client("com.a.web", now: Self.now)
        try await store.save(Self.client(returnURL: "https://a/2"))
        #expect(try await cache.client("com.a.web", now: Self.now)?.returnURLs == ["https://a/2"])
    }
}
