import Foundation
import Synchronization

/// How many live entries one ``SQLSignInWithAppleStorage`` believes its table holds, so that an
/// insert need not count the table: the table is counted (after its expired rows are deleted) only
/// on the first insert and whenever the estimate reaches the capacity.
///
/// The estimate adds this process's inserts and takes; other instances' are seen at the next count.
/// So each instance refuses new entries once the table, as it last counted it plus what it added
/// itself, is full: a bound per instance, not a count of every row at every insert.
final class LiveEntryEstimate: Sendable {
    enum Verdict { case insert, count, full }

    private struct State {
        var live: Int?
        /// When the table was found full: refuse without counting again until its first entry expires
        /// or this process takes one.
        var fullUntil: Date?
    }

    private let state = Mutex(State())

    func verdict(now: Date, capacity: Int) -> Verdict {
        state.withLock { state in
            guard let live = state.live else { return .count }
            if let fullUntil = state.fullUntil, now < fullUntil { return .full }
            return live < capacity ? .insert : .count
        }
    }

    /// The table's count, taken just now; `earliestExpiry` is its first entry's expiry.
    func counted(_ live: Int, earliestExpiry: Date?, now: Date, capacity: Int) -> Verdict {
        state.withLock { state in
            state.live = live
            state.fullUntil = live >= capacity ? max(now, earliestExpiry ?? now) : nil
            return live < capacity ? .insert : .full
        }
    }

    func inserted() { state.withLock { $0.live = $0.live.map { $0 + 1 } } }

    func took() {
        state.withLock { state in
            state.live = state.live.map { max(0, $0 - 1) }
            state.fullUntil = nil
        }
    }
}
