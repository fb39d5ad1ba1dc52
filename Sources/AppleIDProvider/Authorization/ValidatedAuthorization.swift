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
