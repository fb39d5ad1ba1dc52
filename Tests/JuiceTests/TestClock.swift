import Foundation
import Synchronization

/// Juice's clock in tests: the wall clock (the emulator issues tokens on it) plus an offset a test
/// moves forward to let something expire, without sleeping.
final class TestClock: Sendable {
    private let offset = Mutex<TimeInterval>(0)

    var now: @Sendable () -> Date { { Date().addingTimeInterval(self.offset.withLock { $0 }) } }

    func advance(by seconds: TimeInterval) { offset.withLock { $0 += seconds } }
}
