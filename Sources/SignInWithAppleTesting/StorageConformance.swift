import Foundation
import SignInWithApple

/// The checks every ``SignInWithAppleStorage`` must pass, for the kit's own storages and yours:
///
/// ```swift
/// @Test func myStorageConforms() async throws {
///     try await StorageConformance.check(MyRedisStorage(...))
/// }
/// ```
public enum StorageConformance {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Runs every check on `storage`, each with its own keys.
    ///
    /// - Parameter atomicTake: Also check that of 20 concurrent takes of one entry exactly one gets
    ///   it (`false` only for storages documented as not atomic, such as Vapor's caches).
    public static func check(_ storage: any SignInWithAppleStorage, atomicTake: Bool = true) async throws {
        let run = UUID().uuidString
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let later = now.addingTimeInterval(600)
        let value: [UInt8] = Array("sealed bytes \(run)".utf8) + [0, 255, 128]

        try expect(try await storage.insert(value, forKey: "a.\(run)", expiresAt: later, now: now), "a first insert is accepted")
        try expect(!(try await storage.insert([1], forKey: "a.\(run)", expiresAt: later, now: now)), "a second insert of a live key is refused")
        let taken = try await storage.take("a.\(run)")
        try expect(taken?.value == value, "take returns the bytes inserted, unchanged")
        try expect(abs((taken?.expiresAt.timeIntervalSince1970 ?? 0) - later.timeIntervalSince1970) < 1, "take returns the expiry")
        try expect(try await storage.take("a.\(run)") == nil, "an entry is taken once")
        try expect(try await storage.take("missing.\(run)") == nil, "an unknown key gives nothing")

        try expect(try await storage.insert(value, forKey: "b.\(run)", expiresAt: later, now: now), "insert after another key's take")
        try expect(try await storage.insert([2], forKey: "c.\(run)", expiresAt: later, now: now), "keys are independent")
        try expect(try await storage.take("c.\(run)")?.value == [2], "each key keeps its own value")
        try expect(try await storage.take("b.\(run)")?.value == value, "each key keeps its own value")

        try expect(try await storage.insert([3], forKey: "d.\(run)", expiresAt: later, now: now), "insert before a take")
        _ = try await storage.take("d.\(run)")
        try expect(try await storage.insert([4], forKey: "d.\(run)", expiresAt: later, now: now), "a key can be used again once taken")
        try expect(try await storage.take("d.\(run)")?.value == [4], "the new value is returned")

        guard atomicTake else { return }
        try expect(try await storage.insert(value, forKey: "race.\(run)", expiresAt: later, now: now), "insert for the race")
        let winners = try await withThrowingTaskGroup(of: Bool.self) { group in
            for _ in 0..<20 { group.addTask { try await storage.take("race.\(run)") != nil } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try expect(winners == 1, "of 20 concurrent takes exactly one gets the entry (got \(winners))")
        let inserted = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<20 {
                group.addTask { try await storage.insert([UInt8(index)], forKey: "insert-race.\(run)", expiresAt: later, now: now) }
            }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        try expect(inserted == 1, "of 20 concurrent inserts of one key exactly one is accepted (got \(inserted))")
        try expect(try await storage.take("insert-race.\(run)") != nil, "the winner of the insert race is there")
    }

    /// A bounded storage refuses new entries when full instead of evicting live ones, and accepts
    /// again once entries expire. `storage` must have room for exactly `capacity` entries.
    public static func checkBound(_ storage: any SignInWithAppleStorage, capacity: Int) async throws {
        let run = UUID().uuidString
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        for index in 0..<capacity {
            try expect(try await storage.insert([1], forKey: "\(run).\(index)", expiresAt: now.addingTimeInterval(60), now: now), "room for \(index)")
        }
        do {
            _ = try await storage.insert([1], forKey: "\(run).flood", expiresAt: now.addingTimeInterval(60), now: now)
            throw Failure(description: "a full storage accepted another entry")
        } catch is SignInWithAppleStorageError {}
        try expect(try await storage.take("\(run).0")?.value == [1], "a full storage kept its first entry: nothing was evicted")
        let afterExpiry = now.addingTimeInterval(120)
        try expect(
            try await storage.insert([1], forKey: "\(run).late", expiresAt: afterExpiry.addingTimeInterval(60), now: afterExpiry),
            "once entries expired, a new one is accepted")
    }

    private static func expect(_ condition: Bool, _ what: String) throws {
        guard condition else { throw Failure(description: "storage conformance: \(what)") }
    }
}
