import AppleIDProtocol

/// The checks of `/auth/authorize`, in one ordered list (spec §3.1, §18).
///
/// The client is looked up first, then the redirect URI is proven; only after both may an error
/// travel back to the redirect URI, everything before that is a page.
struct AuthorizationPipeline: Sendable {
    static let checks: [any AuthorizationCheck] = [
        RedirectURIIsRegistered(),
        ResponseTypeIsSupported(),
        ResponseModeIsAllowed(),
        ScopesAreKnown(),
        StateAndNonceAreBounded(),
        ProofKeyIsWellFormed(),
    ]

    let registry: any RegistryStore

    /// The validated request, or the error with where it may be shown; with the registered client the
    /// request names, if any, so that the request log records it without a second lookup.
    func validate(_ request: AuthorizationRequest) async throws -> (validation: AuthorizationValidation, client: RegisteredClient?) {
        guard let rawClientID = request.clientID, !rawClientID.isEmpty else {
            return (.rejected(.invalidRequest("client_id is missing")), nil)
        }
        guard let client = try await registry.client(ClientID(rawValue: rawClientID)) else {
            return (.rejected(.invalidClient("client_id \(rawClientID) is not a registered App ID or Services ID")), nil)
        }
        return (Self.check(request, client: client), client)
    }

    /// Runs the checks in order for the request of a registered client.
    private static func check(_ request: AuthorizationRequest, client: RegisteredClient) -> AuthorizationValidation {
        var context = AuthorizationCheckContext(request: request, client: client)
        for check in checks {
            do {
                try check.check(&context)
            } catch {
                guard context.redirectURIProven else { return .rejected(error) }
                return .redirectedError(
                    error.redirectable(),
                    AuthorizationResponse.error(
                        error, redirectURI: context.redirectURI, responseMode: context.responseMode, state: request.state,
                        frameID: request.frameID))
            }
        }
        var validated = ValidatedAuthorization(
            clientID: client.id, teamID: client.teamID, groupID: client.groupID, redirectURI: context.redirectURI,
            includesIDToken: context.responseType.includesIDToken, responseMode: context.responseMode,
            scopes: context.scopes, state: request.state, nonce: request.nonce, codeChallenge: request.codeChallenge)
        validated.frameID = request.frameID
        return .valid(validated)
    }
}

/// The outcome of validating an authorization request.
public enum AuthorizationValidation: Sendable {
    case valid(ValidatedAuthorization)
    /// Client or redirect URI not proven: show a page (HTTP 400), never redirect.
    case rejected(OAuthError)
    /// Proven client and redirect URI: send the error back by the response mode.
    case redirectedError(OAuthError, AuthorizationResponse)
}

extension AuthorizationResponse {
    /// A refusal for the redirect URI.
    static func error(
        _ error: OAuthError, redirectURI: String, responseMode: ResponseMode, state: String?, frameID: String? = nil
    ) -> AuthorizationResponse {
        AuthorizationResponse(redirectURI: redirectURI, responseMode: responseMode, outcome: .refused(error), state: state, frameID: frameID)
    }
}
