import AppleIDProtocol

/// An authorization request that passed every check of the pipeline: what the user is asked to
/// approve and how the answer goes back.
public struct ValidatedAuthorization: Codable, Sendable, Hashable {
    public var clientID: ClientID
    public var teamID: TeamID
    public var groupID: ClientID
    public var redirectURI: String
    public var includesIDToken: Bool
    public var responseMode: ResponseMode
    public var scopes: [Scope]
    public var state: String?
    public var nonce: String?
    public var codeChallenge: String?
    /// A native app's authorization: its code is redeemed without `redirect_uri` (spec §4.1).
    var isNative: Bool
    /// Apple JS's popup id (`frame_id`), echoed in the `web_message` answer so the script can tell
    /// its own popup's answer from any other (spec §13.2).
    public var frameID: String?

    public init(
        clientID: ClientID, teamID: TeamID, groupID: ClientID, redirectURI: String, includesIDToken: Bool,
        responseMode: ResponseMode, scopes: [Scope], state: String?, nonce: String?, codeChallenge: String?, isNative: Bool = false
    ) {
        self.clientID = clientID
        self.teamID = teamID
        self.groupID = groupID
        self.redirectURI = redirectURI
        self.includesIDToken = includesIDToken
        self.responseMode = responseMode
        self.scopes = scopes
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.isNative = isNative
    }

    public var asksForName: Bool { scopes.contains(.name) }
    public var asksForEmail: Bool { scopes.contains(.email) }
}

/// What goes back to the relying party, and how: the server turns it into a redirect, a form
/// POST page, or (for `web_message`) a `postMessage` page.
public struct AuthorizationResponse: Sendable, Hashable {
    public var redirectURI: String
    public var responseMode: ResponseMode
    /// Ordered wire parameters (`code`, `id_token`, `state`, `user`, or `error`, `state`).
    public var parameters: [(name: String, value: String)]
    /// The request's `frame_id`, for the `web_message` answer only (never a redirect parameter).
    public var frameID: String?
    /// For an error answer, the refusal with its precise reason: a caller without a redirect URI
    /// to follow (the admin API) reports it instead of the bare `error` parameter.
    public var refusal: OAuthError?
    /// For an approval, what it issued, typed: callers that are not the delivery (the admin API's
    /// native credential, the emulator) read this, never ``parameters`` by wire name.
    public var issued: IssuedAuthorization?
    /// The request's `state`, echoed in either answer.
    public var state: String?

    public init(redirectURI: String, responseMode: ResponseMode, parameters: [(name: String, value: String)], frameID: String? = nil) {
        self.redirectURI = redirectURI
        self.responseMode = responseMode
        self.parameters = parameters
        self.frameID = frameID
    }

    public subscript(name: String) -> String? { parameters.first { $0.name == name }?.value }

    public static func == (lhs: AuthorizationResponse, rhs: AuthorizationResponse) -> Bool {
        WireMatch.exact(lhs.redirectURI, rhs.redirectURI) && lhs.responseMode == rhs.responseMode && WireMatch.exact(lhs.frameID, rhs.frameID)
            && lhs.parameters.map(\.name) == rhs.parameters.map(\.name)
            && lhs.parameters.map(\.value) == rhs.parameters.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(redirectURI)
        hasher.combine(responseMode)
        hasher.combine(frameID)
        for parameter in parameters {
            hasher.combine(parameter.name)
            hasher.combine(parameter.value)
        }
    }
}

/// What an approval issued (spec §3.3): the answer's wire parameters are made from it.
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

    /// `code`, `id_token`, `state`, `user`: Apple's order.
    func wireParameters(state: String?) throws -> [(name: String, value: String)] {
        var parameters: [(name: String, value: String)] = [("code", code)]
        if let idToken { parameters.append(("id_token", idToken)) }
        if let state { parameters.append(("state", state)) }
        if let user { parameters.append(("user", try user.jsonString())) }
        return parameters
    }
}
