import AppleIDProtocol

/// Why a delivery attempt failed, in coarse classes only: the delivery log is shown to the team in
/// the console and the admin API, and a precise client error (refused, reset, which TLS alert) would
/// turn the endpoint field into a port scanner. The precise error goes to the server log at debug level.
public struct DeliveryFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// What the log shows.
    public let summary: String

    public init(_ summary: String) { self.summary = summary }

    public var description: String { summary }

    /// No answer in time, while connecting or after.
    public static let timeout = DeliveryFailure("timeout")
    /// No connection: refused, unreachable, the name did not resolve, or anything else before an HTTP answer.
    public static let couldNotConnect = DeliveryFailure("could not connect")
    /// The TLS handshake failed (no TLS on that port, an untrusted or mismatched certificate).
    public static let tlsError = DeliveryFailure("TLS error")
    /// The endpoint's host is an IP literal or resolves to a loopback, private, link-local or metadata
    /// address, which only development mode may reach.
    public static let destinationNotAllowed = DeliveryFailure("destination not allowed")

    /// The endpoint answered with a status other than 2xx (redirects included: they are not followed).
    public static func http(_ status: Int) -> DeliveryFailure { DeliveryFailure("HTTP \(status)") }

    public static func noEndpoint(_ groupID: ClientID) -> DeliveryFailure {
        DeliveryFailure("no notification endpoint is registered for \(groupID)")
    }
}
