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

/// Why a callback was refused. A struct with static members, so that a new reason breaks no caller:
/// `catch CallbackError.unknownState`, or `error.kind == .apple`.
public struct CallbackError: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why the callback was refused; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        public static let apple = Kind("apple")
        public static let unknownState = Kind("unknownState")
        public static let missingCode = Kind("missingCode")
        public static let malformed = Kind("malformed")
        public static let subjectMismatch = Kind("subjectMismatch")
        public static let otherBrowser = Kind("otherBrowser")
        public static let unknownCompletion = Kind("unknownCompletion")
    }

    public let kind: Kind
    /// For ``Kind/apple``, the `error` Apple sent; for ``Kind/malformed``, what is wrong.
    public let detail: String?
    public let description: String

    private init(_ kind: Kind, _ description: String, detail: String? = nil) {
        self.kind = kind
        self.description = description
        self.detail = detail
    }

    /// Apple sent an error instead of a code, such as `user_cancelled_authorize`.
    public static func apple(_ error: String) -> Self {
        Self(.apple, error == "user_cancelled_authorize" ? "the user cancelled sign-in" : "Apple answered \(error)", detail: error)
    }
    /// The state is unknown, already used or expired: a replayed, forged or stale callback.
    public static let unknownState = Self(.unknownState, "the sign-in request is unknown, expired or was already completed")
    public static let missingCode = Self(.missingCode, "the callback carries no authorization code")
    public static func malformed(_ reason: String) -> Self { Self(.malformed, "the callback is malformed: \(reason)", detail: reason) }
    /// The front-channel id_token and the token endpoint's id_token name different users.
    public static let subjectMismatch = Self(.subjectMismatch, "the two identity tokens of the callback name different users")
    /// The sign-in was started in another browser: a replayed callback (login CSRF), or a link
    /// opened elsewhere. Nothing was signed in, and the authorization was revoked.
    public static let otherBrowser = Self(.otherBrowser, "the sign-in was started in another browser; nothing was signed in")
    /// The completion link is unknown, expired or was already used.
    public static let unknownCompletion = Self(.unknownCompletion, "the sign-in completion link is unknown, expired or was already used")

    /// The user cancelled: show the sign-in page again, not an error.
    public var isCancellation: Bool { self == .apple(OAuthErrorCode.userCancelledAuthorize.rawValue) }
}

extension CallbackError: MatchableError {}
