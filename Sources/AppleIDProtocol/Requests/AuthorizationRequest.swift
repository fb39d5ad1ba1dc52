/// The parameters of `GET`/`POST /auth/authorize` as they arrive, before validation (spec §3.1).
///
/// Everything is kept as the raw string so the validation pipeline can say precisely what is
/// wrong; the undocumented parameters Apple's JS sends (`frame_id`, `m`, `v`) are accepted.
public struct AuthorizationRequest: Codable, Sendable, Hashable {
    public var clientID: String?
    public var redirectURI: String?
    public var responseType: String?
    public var responseMode: String?
    public var scope: String?
    public var state: String?
    public var nonce: String?
    public var codeChallenge: String?
    public var codeChallengeMethod: String?
    public var frameID: String?
    public var usageCode: String?
    public var jsVersion: String?

    public init(
        clientID: String? = nil, redirectURI: String? = nil, responseType: String? = nil,
        responseMode: String? = nil, scope: String? = nil, state: String? = nil, nonce: String? = nil,
        codeChallenge: String? = nil, codeChallengeMethod: String? = nil
    ) {
        self.clientID = clientID
        self.redirectURI = redirectURI
        self.responseType = responseType
        self.responseMode = responseMode
        self.scope = scope
        self.state = state
        self.nonce = nonce
        self.codeChallenge = codeChallenge
        self.codeChallengeMethod = codeChallengeMethod
    }

    enum CodingKeys: String, CodingKey {
        case clientID = "client_id"
        case redirectURI = "redirect_uri"
        case responseType = "response_type"
        case responseMode = "response_mode"
        case scope, state, nonce
        case codeChallenge = "code_challenge"
        case codeChallengeMethod = "code_challenge_method"
        case frameID = "frame_id"
        case usageCode = "m"
        case jsVersion = "v"
    }
}
