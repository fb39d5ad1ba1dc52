import Foundation
import Synchronization

/// The identity provider's notion of "now", injected so that tests and expiry checks are exact.
public protocol ProviderClock: Sendable {
    func now() -> Date
}

/// Wall-clock time, optionally moved forward (the admin surface's "move the clock" for expiry tests).
public final class SystemClock: ProviderClock {
    private let offset = Mutex<TimeInterval>(0)

    public init() {}

    public func now() -> Date { Date().addingTimeInterval(offset.withLock { $0 }) }

    /// Moves this clock forward by `seconds` for the rest of the process's life.
    public func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}

/// A clock that only moves when told to: for tests.
public final class ManualClock: ProviderClock {
    private let current: Mutex<Date>

    public init(_ start: Date) { current = Mutex(start) }

    public func now() -> Date { current.withLock { $0 } }

    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    public func set(_ date: Date) { current.withLock { $0 = date } }
}
