import AppleIDProtocol
import AppleIDProvider

/// The bounded log behind the Requests page, shared by every server instance.
public protocol RequestLogStore: Sendable {
    /// Appends `entries` (oldest first) and drops each of their clients' oldest entries beyond
    /// `keepingLast`, counted apart for proven and unproven entries (``RequestLogEntry/isProven``).
    func record(_ entries: [RequestLogEntry], keepingLast: Int) async throws
    /// The client's newest proven (or unproven) entries first.
    func requestLog(clientID: ClientID, proven: Bool, limit: Int) async throws -> [RequestLogEntry]
}
