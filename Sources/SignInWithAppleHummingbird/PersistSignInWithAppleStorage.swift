import Foundation
import Hummingbird
import SignInWithApple

/// A ``SignInWithAppleStorage`` on a Hummingbird persist driver (memory, Redis, Fluent…): share one
/// driver between the app's instances and their sign-ins complete on any of them.
///
/// Entries expire through the driver. Taking an entry creates a claim key for it with `create`
/// (which the driver refuses when the key exists), so of concurrent takes one wins.
/// Bounding is the driver's: a Redis with a `maxmemory` policy that evicts only keys with a TTL
/// (`volatile-ttl`) drops the oldest sign-ins first; size it for your peak of unfinished sign-ins.
public struct PersistSignInWithAppleStorage: SignInWithAppleStorage {
    struct Entry: Codable, Sendable {
        var value: [UInt8]
        var expiresAt: Date
        /// Distinguishes this entry from a later one under the same key, for the take's claim.
        var id = UUID()
    }

    public let driver: any PersistDriver
    /// Prepended to every key, to keep the kit's entries apart from the app's.
    public let prefix: String

    public init(driver: any PersistDriver, prefix: String = "") {
        self.driver = driver
        self.prefix = prefix
    }

    public func insert(_ value: [UInt8], forKey key: String, expiresAt: Date, now: Date) async throws -> Bool {
        do {
            try await driver.create(
                key: prefix + key, value: Entry(value: value, expiresAt: expiresAt), expires: Self.ttl(until: expiresAt, now: now))
            return true
        } catch let error as PersistError where error == .duplicate {
            return false
        }
    }

    public func take(_ key: String) async throws -> StoredEntry? {
        guard let entry = try await driver.get(key: prefix + key, as: Entry.self) else { return nil }
        do {
            // Of the takers that read this entry, the one whose claim is created first wins.
            try await driver.create(key: prefix + key + ".taken." + entry.id.uuidString, value: true, expires: .seconds(3600))
        } catch let error as PersistError where error == .duplicate {
            return nil
        }
        try await driver.remove(key: prefix + key)
        return StoredEntry(value: entry.value, expiresAt: entry.expiresAt)
    }

    static func ttl(until expiresAt: Date, now: Date) -> Duration {
        .milliseconds(max(1000, Int64(expiresAt.timeIntervalSince(now) * 1000)))
    }
}
