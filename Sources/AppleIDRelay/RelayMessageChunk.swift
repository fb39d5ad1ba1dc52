import AppleIDProvider

/// The unit in which the relay holds and stores a message: a large message passes through the
/// listener's spool, the rewriting and the store one chunk at a time, never whole.
public enum RelayMessageChunk {
    /// Bytes per chunk.
    public static let size = 256 * 1024
}
