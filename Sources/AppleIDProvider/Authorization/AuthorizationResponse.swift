import AppleIDProtocol

/// The engine's answer to an authorization, typed: an approval with what it issued, or a refusal
/// with its precise reason, and where and how it goes back. Only the server's delivery turns it
/// into wire parameters (a redirect, a form POST page, or a `postMessage` page, spec §3.3).
public struct AuthorizationResponse: Sendable, Hashable {
    /// An approval or a refusal.
    public enum Outcome: Sendable, Hashable {
        /// What the approval issued.
        case authorized(IssuedAuthorization)
        /// The refusal, with its precise reason: on the wire only its code goes back (with
        /// `state`); a caller without a redirect URI to follow (the admin API) reports the reason.
        case refused(OAuthError)
    }

    public var redirectURI: String
    public var responseMode: ResponseMode
    public var outcome: Outcome
    /// The request's `state`, echoed in either answer.
    public var state: String?
    /// The request's `frame_id`, for the `web_message` answer only (never a redirect parameter).
    public var frameID: String?

    init(redirectURI: String, responseMode: ResponseMode, outcome: Outcome, state: String?, frameID: String? = nil) {
        self.redirectURI = redirectURI
        self.responseMode = responseMode
        self.outcome = outcome
        self.state = state
        self.frameID = frameID
    }

    /// What the approval issued; `nil` for a refusal.
    public var issued: IssuedAuthorization? {
        if case .authorized(let issued) = outcome { return issued }
        return nil
    }

    /// The refusal; `nil` for an approval.
    public var refusal: OAuthError? {
        if case .refused(let error) = outcome { return error }
        return nil
    }

    /// Byte-exact, as the wire compares.
    public static func == (lhs: AuthorizationResponse, rhs: AuthorizationResponse) -> Bool {
        WireMatch.exact(lhs.redirectURI, rhs.redirectURI) && lhs.responseMode == rhs.responseMode
            && WireMatch.exact(lhs.state, rhs.state) && WireMatch.exact(lhs.frameID, rhs.frameID) && lhs.outcome == rhs.outcome
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(redirectURI)
        hasher.combine(responseMode)
        hasher.combine(state)
        hasher.combine(frameID)
        hasher.combine(outcome)
    }
}

/// What an approval issued (spec §3.3).
public struct IssuedAuthorization: Sendable, Hashable {
    /// The single-use authorization code.
    public var code: String
    /// The id_token, when the response type asked for one.
    public var idToken: String?
    /// On the first authorization only, the name and e-mail the user chose to share.
    public var user: AuthorizedUser?
    /// The `sub` the id_token names (the team-scoped identifier).
    public var subject: Subject
    /// The id_token's `real_user_status`.
    public var realUserStatus: RealUserStatus
}
