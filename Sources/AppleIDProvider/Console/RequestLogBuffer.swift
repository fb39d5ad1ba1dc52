import Synchronization

/// Request-log entries waiting to be written in one batch. The token and authorization endpoints
/// record every request, and writing each as it happens cost two writes per request on the database's
/// single writer; a batch costs one insert and one trim per client for many requests.
///
/// The provider writes the buffer when it holds ``capacity`` entries, before it reads the log, and
/// when ``AppleIDProvider/flushRequestLog()`` is called (`siwa serve` calls it every 250 ms and at
/// shutdown). So the Requests page of this instance is always complete, another instance's entries
/// show within the flush interval, and a process killed with SIGKILL loses the entries of its last
/// interval: the log is a diagnostic view, not state the protocol depends on.
final class RequestLogBuffer: Sendable {
    let capacity: Int
    private let entries = Mutex<[RequestLogEntry]>([])

    init(capacity: Int) { self.capacity = capacity }

    /// Adds `entry`; true when the buffer is full and should be written now.
    func append(_ entry: RequestLogEntry) -> Bool {
        entries.withLock { entries in
            entries.append(entry)
            return entries.count >= capacity
        }
    }

    /// Everything waiting, oldest first, leaving the buffer empty.
    func drain() -> [RequestLogEntry] {
        entries.withLock { entries in
            defer { entries.removeAll(keepingCapacity: true) }
            return entries
        }
    }
}
