import AppleIDProvider
import Synchronization

/// Counts the bytes of a message the relay holds in memory at once, and the most it ever held: the
/// SMTP listener's spool and every piece lent out of it report here. Injected, so that a test can
/// prove a large message streams through in chunks (RSS would also count everything else).
///
/// Its budget bounds what every session's spool keeps in memory together: a spool that would pass
/// it writes to its file instead (``tryHold(_:)``).
public final class BufferGauge: Sendable {
    private let state = Mutex<(current: Int, peak: Int)>((0, 0))
    /// The most bytes the spools keep in memory together (64 chunks: 16 MB by default).
    public let budget: Int

    public init(budget: Int = 64 * RelayMessageChunk.size) { self.budget = budget }

    /// The bytes held now.
    public var current: Int { state.withLock { $0.current } }

    /// Holds `count` bytes if they fit in the budget with what is held; `false` (nothing held) otherwise.
    public func tryHold(_ count: Int) -> Bool {
        state.withLock { state in
            guard state.current + count <= budget else { return false }
            state.current += count
            state.peak = max(state.peak, state.current)
            return true
        }
    }

    /// The most bytes held at one moment since the gauge was made.
    public var peak: Int { state.withLock { $0.peak } }

    public func hold(_ count: Int) {
        state.withLock { state in
            state.current += count
            state.peak = max(state.peak, state.current)
        }
    }

    public func release(_ count: Int) {
        state.withLock { $0.current -= count }
    }
}
