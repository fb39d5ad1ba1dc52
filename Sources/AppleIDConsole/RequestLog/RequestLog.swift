import AppleIDProvider

/// The Requests page's two lists of one client.
public struct RequestLog: Sendable, Hashable {
    /// Requests that proved they come from the client, newest first.
    public var proven: [RequestLogEntry]
    /// Requests that named the client without proving it (rate-limited), newest first.
    public var unproven: [RequestLogEntry]

    public init(proven: [RequestLogEntry] = [], unproven: [RequestLogEntry] = []) {
        self.proven = proven
        self.unproven = unproven
    }
}
