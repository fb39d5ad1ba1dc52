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

/// Where the engine hands each request it records for the console's Requests page (`siwa serve`:
/// the console's `StoredRequestLog`, which writes them to the store in batches). An engine started
/// without one records nothing.
public protocol RequestRecorder: Sendable {
    /// Records `entry`. Never fails the request: an entry that cannot be kept is dropped.
    func record(_ entry: RequestLogEntry) async
    /// Returns once every entry recorded before the call is written (or dropped).
    func flush() async
}
