import AppleIDProtocol
import Foundation
import Synchronization
import _CryptoExtras

/// Apple's signing keys (`/auth/keys`), fetched once and kept.
///
/// A token signed by an unknown `kid` triggers at most one refetch at a time (concurrent callers
/// share it) and at most one per ``refetchCooldown``; a key is never borrowed from another `kid`.
/// When the endpoint is down, the keys already known keep working. Keys that are not RSA (≥ 2048
/// bits) for RS256 signatures are skipped, so a broken key set verifies nothing and crashes nothing.
///
/// Keys Apple withdraws stop verifying: once the key set is older than ``maximumAge`` it is fetched
/// again on the next use, and a key no longer published is kept for ``withdrawalGracePeriod`` (tokens
/// it signed just before are still in flight), then dropped.
public actor AppleKeySet {
    /// Why no key was returned. A struct with static members, as ``IdentityTokenError``, so that a new
    /// reason breaks no caller: compare with `==`, or `catch let error as AppleKeySet.KeyError where error.kind == .unavailable`.
    public struct KeyError: Error, Sendable, Hashable, CustomStringConvertible {
        /// Why no key was returned; new kinds may be added.
        public struct Kind: Sendable, Hashable, CustomStringConvertible {
            public let description: String
            private init(_ name: String) { description = name }

            public static let unknownKeyID = Kind("unknownKeyID")
            public static let unavailable = Kind("unavailable")
        }

        public let kind: Kind
        /// For ``Kind/unknownKeyID``, the `kid`; for ``Kind/unavailable``, the reason.
        public let detail: String
        public let description: String

        private init(_ kind: Kind, _ description: String, detail: String) {
            self.kind = kind
            self.description = description
            self.detail = detail
        }

        /// No key with this `kid`, even after a refetch.
        public static func unknownKeyID(_ kid: String) -> Self { Self(.unknownKeyID, "no signing key with kid \(kid) in the key set", detail: kid) }
        /// The key set could not be fetched and no key is cached.
        public static func unavailable(_ reason: String) -> Self { Self(.unavailable, "the key set is unavailable: \(reason)", detail: reason) }
    }

    private let url: String
    private let transport: any HTTPTransport
    private let clock: @Sendable () -> Date
    /// The shortest time between two fetches triggered by unknown `kid`s.
    public let refetchCooldown: TimeInterval
    /// How long a fetched key set is trusted before the next use fetches it again.
    public let maximumAge: TimeInterval
    /// How long a key Apple no longer publishes keeps verifying.
    public let withdrawalGracePeriod: TimeInterval
    private var keys: [String: _RSA.Signing.PublicKey] = [:] {
        didSet { published.withLock { $0.keys = keys } }
    }
    /// When each key that is no longer published stops verifying.
    private var withdrawn: [String: Date] = [:] {
        didSet { published.withLock { $0.withdrawn = withdrawn } }
    }
    /// The keys, readable without a hop onto the actor: verifying with a known key is the hot path.
    private nonisolated let published = Mutex(Published())
    /// When the last fetch began (for the cooldown).
    private var lastFetch: Date?
    /// When the key set was last fetched successfully (for ``maximumAge``).
    private var lastSuccess: Date? {
        didSet { published.withLock { $0.freshUntil = lastSuccess.map { $0.addingTimeInterval(maximumAge) } ?? .distantPast } }
    }
    private var inFlight: Task<Void, any Error>?
    /// Every caller that waits on a fetch (its own or a shared one), counted as it begins to wait.
    let fetchWaiters = ArrivalCount()

    /// - Parameters:
    ///   - maximumAge: after this long the key set is fetched again on its next use (default a day).
    ///   - withdrawalGracePeriod: how long a key no longer published keeps verifying (default an hour).
    public init(
        environment: AppleEnvironment, transport: any HTTPTransport, refetchCooldown: TimeInterval = 60, maximumAge: TimeInterval = 86_400,
        withdrawalGracePeriod: TimeInterval = 3_600, clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.url = environment.keysEndpoint
        self.transport = transport
        self.refetchCooldown = refetchCooldown
        self.maximumAge = maximumAge
        self.withdrawalGracePeriod = withdrawalGracePeriod
        self.clock = clock
    }

    /// A key set fixed at creation (`siwa verify --jwks FILE`, tests): never fetches.
    public init(jwksJSON: [UInt8]) {
        self.url = ""
        self.transport = NoTransport()
        self.refetchCooldown = .infinity
        self.maximumAge = .infinity
        self.withdrawalGracePeriod = .infinity
        self.clock = { Date() }
        let parsed = Self.parse(jwksJSON)
        self.keys = parsed
        self.published.withLock { $0 = Published(keys: parsed, withdrawn: [:], freshUntil: .distantFuture) }
        self.lastFetch = .distantFuture
        self.lastSuccess = .distantFuture
    }

    /// The key named `kid`, fetching the key set when it is not known or older than ``maximumAge``.
    public func key(for kid: String) async throws -> _RSA.Signing.PublicKey {
        if let lastSuccess, clock().timeIntervalSince(lastSuccess) >= maximumAge { try await refresh() }
        if let key = usableKey(kid) { return key }
        try await refresh()
        guard let key = usableKey(kid) else { throw KeyError.unknownKeyID(kid) }
        return key
    }

    /// The key named `kid` if it is already known and the key set is fresh; never fetches, never suspends.
    public nonisolated func cachedKey(for kid: String) -> _RSA.Signing.PublicKey? {
        let now = clock()
        return published.withLock { published in
            guard now < published.freshUntil, let key = published.keys[kid] else { return nil }
            if let until = published.withdrawn[kid], now >= until { return nil }
            return key
        }
    }

    /// The `kid`s currently known, withdrawn ones included until their grace period ends.
    public var knownKeyIDs: [String] {
        let now = clock()
        return keys.keys.filter { kid in withdrawn[kid].map { now < $0 } ?? true }.sorted()
    }

    /// `kid`'s key unless it was withdrawn longer ago than the grace period (then it is forgotten).
    private func usableKey(_ kid: String) -> _RSA.Signing.PublicKey? {
        if let until = withdrawn[kid], clock() >= until {
            keys[kid] = nil
            withdrawn[kid] = nil
        }
        return keys[kid]
    }

    /// One fetch at a time, shared by every caller that needs it; with keys already known, at most
    /// one fetch per cooldown. With no key at all, every caller may try (there is nothing to verify with).
    private func refresh() async throws {
        let task: Task<Void, any Error>
        if let inFlight {
            task = inFlight
        } else {
            if !keys.isEmpty, let lastFetch, clock().timeIntervalSince(lastFetch) < refetchCooldown { return }
            task = Task { try await self.fetch() }
            inFlight = task
        }
        fetchWaiters.arrive()
        do {
            try await task.value
        } catch {
            if inFlight == task { inFlight = nil }
            // An outage keeps the keys already known; only with none at all is it an error.
            guard keys.isEmpty else { return }
            throw KeyError.unavailable("\(error)")
        }
        if inFlight == task { inFlight = nil }
    }

    private func fetch() async throws {
        lastFetch = clock()
        let response = try await transport.send(HTTPTransportRequest(method: .get, url: url))
        guard response.status == 200 else {
            throw AppleServiceError.unexpectedResponse(status: response.status, reason: "the key set endpoint answered \(response.status)")
        }
        let fetched = Self.parse(response.body)
        guard !fetched.isEmpty else {
            throw AppleServiceError.unexpectedResponse(status: response.status, reason: "the key set holds no usable RSA key")
        }
        // A key no longer published keeps verifying for the grace period from when its absence was
        // first seen (tokens it signed just before are still in flight); a republished key is whole again.
        let now = clock()
        var merged = fetched
        var stillWithdrawn: [String: Date] = [:]
        for (kid, key) in keys where fetched[kid] == nil {
            let until = withdrawn[kid] ?? now.addingTimeInterval(withdrawalGracePeriod)
            guard now < until else { continue }
            stillWithdrawn[kid] = until
            merged[kid] = key
        }
        withdrawn = stillWithdrawn
        keys = merged
        lastSuccess = now
    }

    /// RSA keys by `kid`, skipping anything that is not an RS256 signing key of at least 2048 bits.
    /// Each entry is read on its own, so one malformed entry never hides the others.
    static func parse(_ json: [UInt8]) -> [String: _RSA.Signing.PublicKey] {
        guard let document = try? JSONSerialization.jsonObject(with: Data(json)) as? [String: Any],
            let entries = document["keys"] as? [Any]
        else { return [:] }
        var keys: [String: _RSA.Signing.PublicKey] = [:]
        for case let entry as [String: Any] in entries {
            guard entry["kty"] as? String == "RSA", let kid = entry["kid"] as? String, !kid.isEmpty else { continue }
            if let use = entry["use"], use as? String != "sig" { continue }
            if let alg = entry["alg"], alg as? String != "RS256" { continue }
            if let operations = entry["key_ops"], !((operations as? [String])?.contains("verify") ?? false) { continue }
            guard let n = (entry["n"] as? String).flatMap({ try? Base64URL.decode($0) }),
                let e = (entry["e"] as? String).flatMap({ try? Base64URL.decode($0) }),
                let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e)
            else { continue }
            keys[kid] = publicKey
        }
        return keys
    }
}

/// What the hot path reads without the actor: the keys, when withdrawn ones stop, when the set goes stale.
private struct Published: Sendable {
    var keys: [String: _RSA.Signing.PublicKey] = [:]
    var withdrawn: [String: Date] = [:]
    var freshUntil: Date = .distantPast
}

/// The transport of a fixed key set: never called.
private struct NoTransport: HTTPTransport {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        throw AppleServiceError.transport("this key set is fixed and fetches nothing")
    }
}

extension AppleKeySet.KeyError: MatchableError {}
