import Foundation
import SignInWithApple
import Vapor

/// A ``SignInWithAppleStorage`` on a Vapor cache (`app.cache`: memory, Redis, Fluent…).
///
/// Vapor's `Cache` has no atomic "insert if absent" or "get and delete", so this storage makes them
/// atomic itself, per key, between the tasks of one process (share one value of it: copies share
/// the lock). That is all it takes on Vapor's in-memory cache, which is one process's anyway. Across
/// processes (several instances on one Redis) two requests racing for one entry could still both get
/// it: the kit stays safe (Apple redeems a code once, and a completion still needs the browser that
/// started it), but single use then holds only within each instance. For several instances use
/// `SQLSignInWithAppleStorage` (the `SignInWithAppleSQL` product) on the app's database, whose
/// `DELETE … RETURNING` is atomic. Bounding is the cache's.
// @unchecked: Vapor's `Cache` protocol is not marked Sendable, yet `app.cache` is Vapor's own shared,
// thread-safe cache (its memory cache locks; Redis and Fluent go through their pools), used from every
// event loop; this struct adds only immutable `let`s and an actor.
public struct CacheSignInWithAppleStorage: SignInWithAppleStorage, @unchecked Sendable {  // safe: the reason is above
    public let cache: any Cache
    /// Prepended to every key, to keep the kit's entries apart from the app's.
    public let prefix: String
    private let gate = EntryGate()

    public init(cache: any Cache, prefix: String = "") {
        self.cache = cache
        self.prefix = prefix
    }

    public func insert(_ value: [UInt8], forKey key: String, expiresAt: Date, now: Date) async throws -> Bool {
        try await gate.run(prefix + key) {
            if let existing = try await cache.get(prefix + key, as: StoredEntry.self), existing.expiresAt > now { return false }
            let seconds = max(1, Int(expiresAt.timeIntervalSince(now).rounded(.up)))
            try await cache.set(prefix + key, to: StoredEntry(value: value, expiresAt: expiresAt), expiresIn: .seconds(seconds))
            return true
        }
    }

    public func take(_ key: String) async throws -> StoredEntry? {
        try await gate.run(prefix + key) {
            guard let entry = try await cache.get(prefix + key, as: StoredEntry.self) else { return nil }
            try await cache.delete(prefix + key)
            return entry
        }
    }
}
