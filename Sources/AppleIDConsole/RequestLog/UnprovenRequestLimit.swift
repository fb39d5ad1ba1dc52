import AppleIDProtocol
import Foundation
import Synchronization

/// How many unproven requests per client and minute this instance writes to the request log. They
/// can come from anyone who knows a client ID; past the limit they are counted in the server log only.
final class UnprovenRequestLimit: Sendable {
    let perMinute: Int
    private let windows = Mutex<[ClientID: (minute: Int, count: Int)]>([:])

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Whether one more unproven request of `clientID` may be recorded at `now`.
    func admit(_ clientID: ClientID, now: Date) -> Bool {
        let minute = Int((now.timeIntervalSince1970 / 60).rounded(.down))
        return windows.withLock { windows in
            // Only registered clients get here; the map still keeps the current minute only.
            if windows.count > 10_000 { windows = windows.filter { $0.value.minute == minute } }
            var window: (minute: Int, count: Int) = windows[clientID].flatMap { $0.minute == minute ? $0 : nil } ?? (minute, 0)
            guard window.count < perMinute else { return false }
            window.count += 1
            windows[clientID] = window
            return true
        }
    }
}
