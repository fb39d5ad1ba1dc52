import AppleIDProtocol

/// `redirect_uri` must be present and equal, byte for byte, to a registered Return URL (spec §3.1,
/// §12; ``WireMatch``: "\u{212A}" is not "K"). Until it is, errors are shown as a page and never redirected (RFC 6749 §4.1.2.1).
struct RedirectURIIsRegistered: AuthorizationCheck {
    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError) {
        guard let redirectURI = context.request.redirectURI, !redirectURI.isEmpty else {
            throw OAuthError(.invalidRequest, description: "Invalid web redirect url.", reason: "redirect_uri is missing")
        }
        guard context.client.returnURLs.containsExactly(redirectURI) else {
            throw OAuthError(
                .invalidRequest, description: "Invalid web redirect url.",
                reason:
                    "redirect_uri \(UntrustedText.excerpt(redirectURI)) is not a registered Return URL of \(context.client.id): \(ReturnURLDifference.explain(redirectURI, registered: context.client.returnURLs))"
            )
        }
        context.redirectURI = redirectURI
        context.redirectURIProven = true
    }
}

/// `response_type` is `code` or `code id_token`; `id_token` alone is unsupported (spec §3.1).
struct ResponseTypeIsSupported: AuthorizationCheck {
    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError) {
        guard let raw = context.request.responseType, !raw.isEmpty else {
            throw .invalidRequest("response_type is missing")
        }
        guard let responseType = ResponseType(parsing: raw) else {
            throw .unsupportedResponseType("response_type \"\(raw)\" is not \"code\" or \"code id_token\"")
        }
        context.responseType = responseType
    }
}

/// `response_mode` is one Apple knows; `code id_token` never travels in the query, and asking for
/// the user's name or e-mail requires `form_post` (spec §3.1, §18).
struct ResponseModeIsAllowed: AuthorizationCheck {
    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError) {
        let mode: ResponseMode
        if let raw = context.request.responseMode, !raw.isEmpty {
            mode = ResponseMode(rawValue: raw)
            guard ResponseMode.all.contains(mode) else {
                context.responseMode = context.responseType.includesIDToken ? .fragment : .query
                throw .invalidRequest("response_mode \"\(raw)\" is not query, fragment, form_post or web_message")
            }
        } else {
            mode = context.responseType.includesIDToken ? .fragment : .query
        }
        context.responseMode = mode
        if context.responseType.includesIDToken && mode == .query {
            throw .invalidRequest("response_type code id_token cannot use response_mode query")
        }
        let asksForUserData = Scope.parse(context.request.scope)?.contains { $0 == .name || $0 == .email } ?? false
        if asksForUserData && mode != .formPost && mode != .webMessage {
            throw .invalidRequest("response_mode must be form_post when the name or email scope is requested")
        }
    }
}

/// Scopes are a subset of `name`, `email`, `openid`, each at most once.
struct ScopesAreKnown: AuthorizationCheck {
    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError) {
        guard let scopes = Scope.parse(context.request.scope) else {
            throw .invalidScope("scope repeats a value")
        }
        if let unknown = scopes.first(where: { !Scope.authorizationScopes.contains($0) }) {
            throw .invalidScope("scope \"\(unknown.rawValue)\" is not name, email or openid")
        }
        context.scopes = scopes
    }
}

/// `state` and `nonce` are echoed verbatim; they only need a sane length.
struct StateAndNonceAreBounded: AuthorizationCheck {
    static let maximumLength = 2048

    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError) {
        if (context.request.state?.utf8.count ?? 0) > Self.maximumLength {
            throw .invalidRequest("state is longer than \(Self.maximumLength) bytes")
        }
        if (context.request.nonce?.utf8.count ?? 0) > Self.maximumLength {
            throw .invalidRequest("nonce is longer than \(Self.maximumLength) bytes")
        }
    }
}

/// PKCE (RFC 7636): optional; when present the method is `S256` and the challenge is 43
/// base64url characters. `plain` is refused because it protects nothing a stolen code does not.
struct ProofKeyIsWellFormed: AuthorizationCheck {
    func check(_ context: inout AuthorizationCheckContext) throws(OAuthError) {
        let challenge = context.request.codeChallenge
        let method = context.request.codeChallengeMethod
        switch (challenge, method) {
        case (nil, nil):
            return
        case (nil, .some):
            throw .invalidRequest("code_challenge_method without code_challenge")
        case (.some(let challenge), let method):
            guard WireMatch.exact(method, CodeChallengeMethod.s256.rawValue) else {
                throw .invalidRequest("code_challenge_method must be S256, found \(method ?? "none (plain)")")
            }
            let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
            guard challenge.count == 43, challenge.allSatisfy(alphabet.contains) else {
                throw .invalidRequest("code_challenge is not a base64url SHA-256 digest (43 characters)")
            }
        }
    }
}
