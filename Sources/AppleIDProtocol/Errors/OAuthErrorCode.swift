/// The `error` value of an OAuth error response (RFC 6749 §4.1.2.1, §5.2; Apple's TN3107).
public struct OAuthErrorCode: RawRepresentable, Hashable, Sendable, Codable {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    public static let invalidRequest = OAuthErrorCode(rawValue: "invalid_request")
    public static let invalidClient = OAuthErrorCode(rawValue: "invalid_client")
    public static let invalidGrant = OAuthErrorCode(rawValue: "invalid_grant")
    public static let unauthorizedClient = OAuthErrorCode(rawValue: "unauthorized_client")
    public static let unsupportedGrantType = OAuthErrorCode(rawValue: "unsupported_grant_type")
    public static let unsupportedResponseType = OAuthErrorCode(rawValue: "unsupported_response_type")
    public static let invalidScope = OAuthErrorCode(rawValue: "invalid_scope")
    /// The only error Apple sends back to a `redirect_uri`: the user pressed Cancel (spec §3.3).
    public static let userCancelledAuthorize = OAuthErrorCode(rawValue: "user_cancelled_authorize")
    public static let serverError = OAuthErrorCode(rawValue: "server_error")
    /// The server cannot answer now (its database is unavailable); sent with `503` and `Retry-After`
    /// (RFC 6749 §4.1.2.1).
    public static let temporarilyUnavailable = OAuthErrorCode(rawValue: "temporarily_unavailable")
}
