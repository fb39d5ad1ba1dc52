/// An OAuth error as a value: the wire code and description, the HTTP status, whether it may be
/// sent to the `redirect_uri`, and the precise reason, which is logged and never sent.
///
/// Apple's answers are deliberately opaque (`{"error":"invalid_client"}`); ``reason`` is the
/// diagnostic Apple never gives ("client secret exp is 181 days after iat").
public struct OAuthError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: OAuthErrorCode
    /// The wire `error_description`; only Apple's own strings are used here.
    public var errorDescription: String?
    /// HTTP status of the response that carries this error.
    public var status: Int
    /// Whether the error may travel back to the `redirect_uri`. It may only once the client and the
    /// redirect URI are proven; before that it is shown as a page (RFC 6749 §4.1.2.1).
    public var isRedirectable: Bool
    /// The precise internal reason, for logs and the playground. Never contains a secret or token.
    public var reason: String

    public init(
        _ code: OAuthErrorCode,
        description: String? = nil,
        status: Int = 400,
        isRedirectable: Bool = false,
        reason: String
    ) {
        self.code = code
        self.errorDescription = description
        self.status = status
        self.isRedirectable = isRedirectable
        self.reason = reason
    }

    public var description: String { "\(code.rawValue): \(reason)" }

    /// ``status`` under a name of its own: the server declares `status` again as Hummingbird's
    /// `HTTPResponse.Status` (an `HTTPResponseError`), which hides this module's `Int` there.
    public var statusCode: Int { status }

    /// The same error, allowed to travel back to the proven `redirect_uri`.
    public func redirectable() -> OAuthError {
        var copy = self
        copy.isRedirectable = true
        return copy
    }

    public static func invalidRequest(_ reason: String) -> OAuthError { OAuthError(.invalidRequest, reason: reason) }
    public static func invalidClient(_ reason: String) -> OAuthError { OAuthError(.invalidClient, reason: reason) }
    public static func unauthorizedClient(_ reason: String) -> OAuthError { OAuthError(.unauthorizedClient, reason: reason) }
    public static func invalidScope(_ reason: String) -> OAuthError { OAuthError(.invalidScope, reason: reason) }
    public static func unsupportedGrantType(_ reason: String) -> OAuthError { OAuthError(.unsupportedGrantType, reason: reason) }
    public static func unsupportedResponseType(_ reason: String) -> OAuthError {
        OAuthError(.unsupportedResponseType, reason: reason)
    }
    public static func invalidGrant(_ description: String?, reason: String) -> OAuthError {
        OAuthError(.invalidGrant, description: description, reason: reason)
    }
    public static let userCancelled = OAuthError(
        .userCancelledAuthorize, isRedirectable: true, reason: "the user cancelled the authorization")
}

/// Apple's observed `error_description` strings (spec §4.5), so the wire matches Apple's.
public enum AppleErrorDescription {
    public static let codeExpiredOrRevoked = "The code has expired or has been revoked."
    public static let codeAlreadyUsed = "The code has already been used."
    public static let tokenExpiredOrRevoked = "The token has expired or has been revoked."
    public static func clientIDMismatch(_ clientID: ClientID) -> String {
        "client_id mismatch. The code was not issued to \(clientID.rawValue)."
    }
    public static func redirectURIMismatch(_ redirectURI: String) -> String {
        "redirect_uri mismatch. The code was not issued to \(redirectURI)."
    }
}
