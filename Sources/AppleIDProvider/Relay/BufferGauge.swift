import Synchronization

/// Counts the bytes of a message the relay holds in memory at once, and the most it ever held: the
/// SMTP listener's spool and every piece lent out of it report here. Injected, so that a test can
/// prove a large message streams through in chunks (RSS would also count everything else).
public final class BufferGauge: Sendable {
    private let state = Mutex<(current: Int, peak: Int)>((0, 0))

    public init() {}

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
