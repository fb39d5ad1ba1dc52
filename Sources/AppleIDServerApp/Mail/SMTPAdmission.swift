import Synchronization

/// How many SMTP sessions the listener holds at once, overall and from one peer address: a
/// connection beyond either is answered `421 4.7.0` and closed at once, so that nobody can hold
/// every session (each holds memory, a task and up to a message's spool) by opening more.
package final class SMTPAdmission: Sendable {
    package let maximumSessions: Int
    package let maximumPerPeer: Int
    private let state = Mutex<(total: Int, byPeer: [String: Int])>((0, [:]))

    package init(maximumSessions: Int = 100, maximumPerPeer: Int = 10) {
        self.maximumSessions = maximumSessions
        self.maximumPerPeer = maximumPerPeer
    }

    /// Takes a session for `peer`, or `false` when a bound is reached.
    package func admit(_ peer: String) -> Bool {
        state.withLock { state in
            guard state.total < maximumSessions, state.byPeer[peer, default: 0] < maximumPerPeer else { return false }
            state.total += 1
            state.byPeer[peer, default: 0] += 1
            return true
        }
    }

    /// Gives back a session ``admit(_:)`` took.
    package func release(_ peer: String) {
        state.withLock { state in
            state.total -= 1
            let left = state.byPeer[peer, default: 1] - 1
            state.byPeer[peer] = left > 0 ? left : nil
        }
    }

    /// The sessions held now.
    package var current: Int { state.withLock { $0.total } }
}
