import AppleIDProtocol
import Foundation

/// One request to `/auth/authorize`, `/auth/token` or `/auth/revoke`, as the console's Requests page
/// shows it: the outcome and, for a refusal, the precise reason. Never a secret, token or code: the
/// reasons the engine writes name rules and safe values only (the same text goes to the log).
public struct RequestLogEntry: Codable, Sendable, Hashable {
    public enum Endpoint: String, Codable, Sendable, Hashable, CaseIterable {
        case authorize, token, revoke
    }

    public var clientID: ClientID
    public var endpoint: Endpoint
    public var at: Date
    /// `ok`, or the OAuth error code sent on the wire.
    public var outcome: String
    /// Why it was refused; empty when it succeeded.
    public var reason: String
    /// Whether the request proved it comes from the client (its secret verified, or its redirect_uri
    /// is registered). Unproven ones can come from anyone who knows the client ID: they are kept in
    /// their own bucket, rate-limited, so they never push out the entries of the client's own requests.
    public var isProven: Bool

    public init(clientID: ClientID, endpoint: Endpoint, at: Date, outcome: String, reason: String, isProven: Bool = true) {
        self.clientID = clientID
        self.endpoint = endpoint
        self.at = at
        self.outcome = outcome
        self.reason = reason
        self.isProven = isProven
    }

    public var succeeded: Bool { outcome == "ok" }
}

/// The bounded log behind the Requests page, shared by every server instance.
public protocol RequestLogStore: Sendable {
    /// Appends `entries` (oldest first) and drops each of their clients' oldest entries beyond
    /// `keepingLast`, counted apart for proven and unproven entries (``RequestLogEntry/isProven``).
    func record(_ entries: [RequestLogEntry], keepingLast: Int) async throws
    /// The client's newest proven (or unproven) entries first.
    func requestLog(clientID: ClientID, proven: Bool, limit: Int) async throws -> [RequestLogEntry]
}

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
