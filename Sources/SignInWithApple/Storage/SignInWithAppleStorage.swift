import Foundation

/// Where the kit keeps what must outlive one request: started sign-ins (under their `state`),
/// verified sign-ins waiting for the browser that started them, and the notifications already seen.
///
/// Every entry is short-lived and single use. Keys are hashes and values are sealed with a key only
/// the browser's URL holds (see ``SealedEntry``), so the storage never holds a usable `state`,
/// completion link, nonce or token: a leaked cache or table gives nothing away.
///
/// Use one storage shared by every instance of the app: ``MemorySignInWithAppleStorage`` for one
/// process, `PersistSignInWithAppleStorage` (Hummingbird's persist drivers, e.g. Redis),
/// `CacheSignInWithAppleStorage` (Vapor's caches) or `SQLSignInWithAppleStorage` (any sql-kit
/// database, in the `SignInWithAppleSQL` product). `SignInWithAppleTesting` runs the conformance
/// checks every implementation should pass.
public protocol SignInWithAppleStorage: Sendable {
    /// Keeps `value` under `key` until `expiresAt`, unless a live entry already has that key.
    ///
    /// - Returns: `false` when a live entry has the key (nothing changes).
    /// - Throws: ``SignInWithAppleStorageError/full`` instead of evicting a live entry, so a flood
    ///   of sign-ins nobody finishes cannot push out those of real users.
    func insert(_ value: [UInt8], forKey key: String, expiresAt: Date, now: Date) async throws -> Bool

    /// Removes the entry and returns it (even if it expired, so the kit can clean up after it).
    /// Of several concurrent calls for one key, at most one gets the entry.
    func take(_ key: String) async throws -> StoredEntry?
}

/// An entry as stored.
public struct StoredEntry: Sendable, Hashable, Codable {
    public var value: [UInt8]
    public var expiresAt: Date

    public init(value: [UInt8], expiresAt: Date) {
        self.value = value
        self.expiresAt = expiresAt
    }
}

/// Why the sign-in storage refused an entry. A struct with static members, so that a new reason
/// breaks no caller: `error.capacity`, or `catch SignInWithAppleStorageError.full(capacity: 100)`.
public struct SignInWithAppleStorageError: Error, Sendable, Hashable, CustomStringConvertible {
    /// For ``full(capacity:)``: the storage's capacity.
    public let capacity: Int?
    public let description: String

    /// The storage holds as many live entries as it may: new sign-ins wait until some expire.
    public static func full(capacity: Int) -> Self {
        Self(
            capacity: capacity,
            description: "the sign-in storage holds its maximum of \(capacity) unfinished sign-ins; new ones are refused until some expire")
    }
}

extension SignInWithAppleStorageError: MatchableError {}

/// A ``SignInWithAppleStorage`` in this process's memory: for one instance, and for tests.
///
/// Bounded: at `capacity` live entries it refuses new ones (after dropping expired ones) rather
/// than evicting anybody's sign-in.
public actor MemorySignInWithAppleStorage: SignInWithAppleStorage {
    private var entries: [String: StoredEntry] = [:]
    public let capacity: Int

    public init(capacity: Int = 100_000) { self.capacity = capacity }

    public func insert(_ value: [UInt8], forKey key: String, expiresAt: Date, now: Date) throws -> Bool {
        if let existing = entries[key], existing.expiresAt > now { return false }
        if entries.count >= capacity {
            entries = entries.filter { $0.value.expiresAt > now }
            guard entries.count < capacity else { throw SignInWithAppleStorageError.full(capacity: capacity) }
        }
        entries[key] = StoredEntry(value: value, expiresAt: expiresAt)
        return true
    }

    public func take(_ key: String) -> StoredEntry? {
        entries.removeValue(forKey: key)
    }

    /// How many entries are held, expired ones included (for tests and metrics).
    public var count: Int { entries.count }
}
