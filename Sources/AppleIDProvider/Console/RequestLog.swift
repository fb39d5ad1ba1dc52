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

    public init(clientID: ClientID, endpoint: Endpoint, at: Date, outcome: String, reason: String) {
        self.clientID = clientID
        self.endpoint = endpoint
        self.at = at
        self.outcome = outcome
        self.reason = reason
    }

    public var succeeded: Bool { outcome == "ok" }
}

/// The bounded log behind the Requests page, shared by every server instance.
public protocol RequestLogStore: Sendable {
    /// Appends `entries` (oldest first) and drops each of their clients' oldest entries beyond `keepingLast`.
    func record(_ entries: [RequestLogEntry], keepingLast: Int) async throws
    /// The client's newest entries first.
    func requestLog(clientID: ClientID, limit: Int) async throws -> [RequestLogEntry]
}
