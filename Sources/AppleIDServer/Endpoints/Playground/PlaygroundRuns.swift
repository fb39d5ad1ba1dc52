import AppleIDProtocol
import AppleIDProvider
import Foundation
import Synchronization

/// The playground's memory of each browser's runs: the `state` and nonce of a started sign-in (ten
/// minutes, single use), and the refresh token a completed run obtained (an hour). Refresh and
/// revoke act only on a run of the browser that asks (its `siwa_playground` cookie), so the
/// playground is no anonymous relying party for the demo Services ID: it never acts on a token
/// someone pastes in.
///
/// Both maps are bounded; entries leave in the order they came (one lifetime each), so expiry costs
/// nothing per request.
final class PlaygroundRuns: Sendable {
    struct Started: Sendable {
        let browserHash: String
        let nonce: String
    }

    struct Completed: Sendable {
        let browserHash: String
        var refreshToken: String
    }

    private let started: ExpiringMap<Started>
    private let completed: ExpiringMap<Completed>

    init(capacity: Int = 10_000, startLifetime: TimeInterval = 600, runLifetime: TimeInterval = 3_600) {
        started = ExpiringMap(capacity: capacity, lifetime: startLifetime)
        completed = ExpiringMap(capacity: capacity, lifetime: runLifetime)
    }

    func start(state: String, nonce: String, browser: String, now: Date) {
        started.insert(Started(browserHash: OpaqueToken.hash(browser), nonce: nonce), for: state, now: now)
    }

    /// The nonce of this browser's sign-in with `state`, once.
    func takeNonce(state: String, browser: String?, now: Date) -> String? {
        guard let browser, let entry = started.remove(state, now: now),
            ConstantTime.equal(entry.browserHash, OpaqueToken.hash(browser))
        else { return nil }
        return entry.nonce
    }

    /// Keeps the refresh token of a completed run; returns the run's identifier for the page's forms.
    func complete(refreshToken: String, browser: String, run: String, now: Date) {
        completed.insert(Completed(browserHash: OpaqueToken.hash(browser), refreshToken: refreshToken), for: run, now: now)
    }

    /// The refresh token of this browser's run.
    func refreshToken(run: String, browser: String?, now: Date) -> String? {
        guard let browser, let entry = completed.value(run, now: now), ConstantTime.equal(entry.browserHash, OpaqueToken.hash(browser))
        else { return nil }
        return entry.refreshToken
    }

    func end(run: String, now: Date) { _ = completed.remove(run, now: now) }
}

/// A map whose entries all live `lifetime` and leave oldest first; at `capacity` the oldest goes.
final class ExpiringMap<Value: Sendable>: Sendable {
    private struct State {
        var values: [String: (value: Value, insertedAt: Date)] = [:]
        /// Keys in insertion order (a key removed early stays here until its turn, then is skipped).
        var order: [(key: String, insertedAt: Date)] = []
        var head = 0
    }

    private let state = Mutex(State())
    let capacity: Int
    let lifetime: TimeInterval

    init(capacity: Int, lifetime: TimeInterval) {
        self.capacity = capacity
        self.lifetime = lifetime
    }

    var count: Int { state.withLock { $0.values.count } }

    func insert(_ value: Value, for key: String, now: Date) {
        state.withLock { state in
            Self.expire(&state, now: now, lifetime: lifetime)
            while state.values.count >= capacity, state.head < state.order.count { Self.dropOldest(&state) }
            state.values[key] = (value, now)
            state.order.append((key, now))
        }
    }

    func value(_ key: String, now: Date) -> Value? {
        state.withLock { state in
            Self.expire(&state, now: now, lifetime: lifetime)
            return state.values[key]?.value
        }
    }

    func remove(_ key: String, now: Date) -> Value? {
        state.withLock { state in
            Self.expire(&state, now: now, lifetime: lifetime)
            return state.values.removeValue(forKey: key)?.value
        }
    }

    private static func expire(_ state: inout State, now: Date, lifetime: TimeInterval) {
        while state.head < state.order.count, now.timeIntervalSince(state.order[state.head].insertedAt) >= lifetime {
            dropOldest(&state)
        }
        // Compact the consumed prefix now and then, so the order list does not grow without bound.
        if state.head > 1_024, state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }

    private static func dropOldest(_ state: inout State) {
        let oldest = state.order[state.head]
        state.head += 1
        // Only if the stored entry is this one (the key may have been removed or inserted again since).
        if let stored = state.values[oldest.key], stored.insertedAt == oldest.insertedAt { state.values[oldest.key] = nil }
    }
}
