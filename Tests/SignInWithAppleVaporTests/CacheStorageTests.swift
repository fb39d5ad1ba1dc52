import Foundation
import NIOCore
import SignInWithApple
import SignInWithAppleTesting
import SignInWithAppleVapor
import Testing
import VaporTesting

@Suite("Vapor cache storage for the kit")
struct CacheStorageTests {
    @Test("Vapor's memory cache passes the storage conformance checks, its concurrent takes included")
    func conformance() async throws {
        try await withApp { app in
            try await StorageConformance.check(CacheSignInWithAppleStorage(cache: app.cache, prefix: "siwa:"))
        }
    }

    @Test("of concurrent takes of one entry exactly one wins, even when the cache answers a get only after other work ran")
    func concurrentTakes() async throws {
        try await withApp { app in
            let storage = CacheSignInWithAppleStorage(cache: SlowCache(base: app.cache, eventLoop: app.eventLoopGroup.any()))
            let now = Date()
            for round in 0..<5 {
                let key = "entry-\(round)"
                #expect(try await storage.insert([7], forKey: key, expiresAt: now.addingTimeInterval(60), now: now))
                let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
                    for _ in 0..<16 { group.addTask { try await storage.take(key) != nil } }
                    return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
                }
                #expect(winners == 1)
            }
        }
    }
}

/// A cache whose writes (a delete is a write of nothing) land only after a few turns of the event
/// loop, as a networked cache's would: a get-then-delete on it is visibly not atomic.
struct SlowCache: Cache {
    let base: any Cache
    let eventLoop: any EventLoop

    func get<T: Decodable>(_ key: String, as type: T.Type) -> EventLoopFuture<T?> { base.get(key, as: type) }

    func set<T: Encodable>(_ key: String, to value: T?) -> EventLoopFuture<Void> {
        set(key, to: value, expiresIn: nil)
    }

    func set<T: Encodable>(_ key: String, to value: T?, expiresIn expirationTime: CacheExpirationTime?) -> EventLoopFuture<Void> {
        let write = Carried { base.set(key, to: value, expiresIn: expirationTime) }
        var turns = eventLoop.makeSucceededVoidFuture()
        for _ in 0..<10 { turns = turns.flatMap { [eventLoop] in eventLoop.submit {} } }
        return turns.flatMap { write.value() }
    }

    func `for`(_ request: Request) -> SlowCache { self }
}

/// Carries the write into the event loop's callbacks. @unchecked: the test's values are used by
/// one callback only, after the caller let go of them.
struct Carried<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
