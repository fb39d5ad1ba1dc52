import AppleIDProtocol

/// What a refresh found: the authorization stands, or it was revoked.
public enum RefreshResult: Sendable, Hashable {
    /// A new access token, and the id_token that came with it, verified like any other.
    case refreshed(identity: VerifiedIdentityToken, tokens: TokenResponse)
    /// Apple answered `invalid_grant`: the refresh token is revoked, because the user stopped using
    /// Sign in with Apple with the app, deleted their Apple ID, or the app revoked it. Sign the user
    /// out and forget the token; the refusal says what Apple answered.
    case revoked(AppleRefusal)
}

extension SignInWithAppleClient {
    /// Refreshes an authorization and verifies the id_token Apple sends back (signature, issuer,
    /// audience, times, `at_hash`). Apple's daily check that a user still authorizes the app:
    ///
    /// ```swift
    /// switch try await siwa.refresh(refreshToken: account.refreshToken) {
    /// case .refreshed(let identity, _): precondition(identity.subject == account.subject)
    /// case .revoked: try await sessions.signOut(account)   // and drop the refresh token
    /// }
    /// ```
    ///
    /// Only `invalid_grant` means revoked; other refusals, network errors and an id_token that does
    /// not verify are thrown.
    public func refresh(refreshToken: String) async throws -> RefreshResult {
        let response: TokenResponse
        do {
            response = try await tokens.refresh(refreshToken: refreshToken)
        } catch AppleServiceError.refused(let refusal) where refusal.code == .invalidGrant {
            return .revoked(refusal)
        }
        guard let idToken = response.idToken else {
            throw AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")
        }
        let identity = try await identityTokens.verify(idToken, accessToken: response.accessToken)
        return .refreshed(identity: identity, tokens: response)
    }
}
