import AppleIDProtocol
import Foundation

/// What Apple sends back to the redirect URI (spec §3.3): by `form_post` body, query or fragment.
public struct AuthorizationCallback: Sendable, Hashable {
    public var code: String?
    public var idToken: String?
    public var state: String?
    /// The first authorization's `user` JSON, parsed.
    public var user: AuthorizedUser?
    /// `user_cancelled_authorize` when the user pressed Cancel.
    public var error: String?

    public init(code: String? = nil, idToken: String? = nil, state: String? = nil, user: AuthorizedUser? = nil, error: String? = nil) {
        self.code = code
        self.idToken = idToken
        self.state = state
        self.user = user
        self.error = error
    }

    /// Parses `application/x-www-form-urlencoded` fields (a `form_post` body, or a query or fragment).
    /// Repeated fields are refused (RFC 6749 §3.1).
    public init(formEncoded text: String) throws {
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&", omittingEmptySubsequences: true) {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]), let value = Self.decode(parts.count > 1 ? parts[1] : "") else {
                throw CallbackError.malformed("a field is not percent-encoded")
            }
            guard fields.updateValue(value, forKey: name) == nil else { throw CallbackError.malformed("\(name) appears twice") }
        }
        self.code = fields["code"]
        self.idToken = fields["id_token"]
        self.state = fields["state"]
        self.error = fields["error"]
        if let user = fields["user"] {
            do {
                self.user = try AuthorizedUser(jsonString: user)
            } catch {
                throw CallbackError.malformed("the user field is not Apple's user JSON")
            }
        }
    }

    private static func decode(_ text: Substring) -> String? {
        text.replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }
}

/// Why a callback was refused.
public enum CallbackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Apple sent an error instead of a code, such as `user_cancelled_authorize`.
    case apple(String)
    /// The state is unknown, already used or expired: a replayed, forged or stale callback.
    case unknownState
    case missingCode
    case malformed(String)
    /// The front-channel id_token and the token endpoint's id_token name different users.
    case subjectMismatch
    /// The sign-in was started in another browser: a replayed callback (login CSRF), or a link
    /// opened elsewhere. Nothing was signed in, and the authorization was revoked.
    case otherBrowser
    /// The completion link is unknown, expired or was already used.
    case unknownCompletion

    public var description: String {
        switch self {
        case .apple(let error): error == "user_cancelled_authorize" ? "the user cancelled sign-in" : "Apple answered \(error)"
        case .unknownState: "the sign-in request is unknown, expired or was already completed"
        case .missingCode: "the callback carries no authorization code"
        case .malformed(let reason): "the callback is malformed: \(reason)"
        case .subjectMismatch: "the two identity tokens of the callback name different users"
        case .otherBrowser: "the sign-in was started in another browser; nothing was signed in"
        case .unknownCompletion: "the sign-in completion link is unknown, expired or was already used"
        }
    }

    /// The user cancelled: show the sign-in page again, not an error.
    public var isCancellation: Bool { self == .apple(OAuthErrorCode.userCancelledAuthorize.rawValue) }
}
