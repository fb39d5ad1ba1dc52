import AppleIDProtocol

/// What went wrong talking to Apple: Apple's own refusal with its code and description, an answer
/// that is not what Apple sends, or the network.
public enum AppleServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple answered with an OAuth error (`invalid_grant`, `invalid_client`, …): its code and
    /// description, and the likely causes the kit found (``AppleRefusal``).
    case refused(AppleRefusal)
    /// Apple answered with an OAuth error. No longer thrown by the kit: refusals come as
    /// ``refused(_:)``, which explains them; kept so that code naming it still compiles.
    case rejected(code: OAuthErrorCode, description: String?, status: Int)
    /// An answer that is neither a success nor an OAuth error (an HTML 403, a 5xx, garbage).
    case unexpectedResponse(status: Int, reason: String)
    /// The request did not complete (timeout, refused connection, …).
    case transport(String)

    public var description: String {
        switch self {
        case .refused(let refusal): refusal.description
        case .rejected(let code, let description, let status):
            "Apple refused the request (\(status)): \(code.rawValue)" + (description.map { " — \($0)" } ?? "")
        case .unexpectedResponse(let status, let reason): "unexpected answer (\(status)): \(reason)"
        case .transport(let reason): "the request failed: \(reason)"
        }
    }
}
