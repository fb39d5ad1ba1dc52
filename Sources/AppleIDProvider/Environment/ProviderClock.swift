import Foundation
import Synchronization

/// The identity provider's notion of "now", injected so that tests and expiry checks are exact.
public protocol ProviderClock: Sendable {
    func now() -> Date
}

/// A clock the admin surface may move: forward for expiry tests, to a given time, and back.
public protocol AdjustableClock: ProviderClock {
    /// How far this clock is from the time it started from (0: not shifted).
    var offset: TimeInterval { get }
    func advance(by seconds: TimeInterval)
    /// Makes `now()` return `date` at this instant (and move on from there).
    func set(_ date: Date)
    /// Undoes every shift.
    func reset()
}

/// Wall-clock time, optionally shifted (the admin surface's "move the clock" for expiry tests).
public final class SystemClock: AdjustableClock {
    private let shift = Mutex<TimeInterval>(0)

    public init() {}

    public func now() -> Date { Date().addingTimeInterval(shift.withLock { $0 }) }

    public var offset: TimeInterval { shift.withLock { $0 } }

    /// Moves this clock forward by `seconds` for the rest of the process's life (or until ``reset()``).
    public func advance(by seconds: TimeInterval) { shift.withLock { $0 += seconds } }

    public func set(_ date: Date) { shift.withLock { $0 = date.timeIntervalSinceNow } }

    public func reset() { shift.withLock { $0 = 0 } }
}

/// A clock that only moves when told to: for tests.
public final class ManualClock: AdjustableClock {
    private let start: Date
    private let current: Mutex<Date>

    public init(_ start: Date) {
        self.start = start
        current = Mutex(start)
    }

    public func now() -> Date { current.withLock { $0 } }

    public var offset: TimeInterval { now().timeIntervalSince(start) }

    public func advance(by seconds: TimeInterval) { current.withLock { $0 = $0.addingTimeInterval(seconds) } }

    public func set(_ date: Date) { current.withLock { $0 = date } }

    /// Back to the time it was made with.
    public func reset() { current.withLock { $0 = start } }
}
