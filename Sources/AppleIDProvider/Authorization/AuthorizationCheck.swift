import AppleIDProtocol

/// The request as the pipeline sees it: the raw parameters, the proven client, and the fields
/// validated so far. Checks run in order and each fills in what it proved.
public struct AuthorizationCheckContext: Sendable {
    public let request: AuthorizationRequest
    public let client: RegisteredClient
    public var redirectURI: String = ""
    public var responseType: ResponseType = .code
    public var responseMode: ResponseMode = .query
    public var scopes: [Scope] = []
    /// Set once the redirect URI is proven: from then on errors go back to the client.
    var redirectURIProven = false

    init(request: AuthorizationRequest, client: RegisteredClient) {
        self.request = request
        self.client = client
    }
}

/// One small rule of `/auth/authorize`. Throws the OAuth error the rule demands.
protocol AuthorizationCheck: Sendable {
    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError)
}
