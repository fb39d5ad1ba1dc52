import AppleIDProtocol
import Foundation

/// `grant_type=authorization_code` (spec §4.1): consume the code once, check what it is bound to,
/// issue access token, refresh token and id_token.
struct AuthorizationCodeGrant: Sendable {
    let store: any GrantStore
    let tokens: TokenIssuance
    let idTokens: IdentityTokenFactory
    let configuration: ProviderConfiguration
    let clock: any ProviderClock

    /// - Parameter defect: what development mode's fault switch spoils in this answer's id_token, if anything.
    func exchange(
        _ request: TokenRequest, client: RegisteredClient, now: Date, defect: (any IdentityTokenDefect)? = nil
    ) async throws -> TokenResponse {
        guard let code = request.code, !code.isEmpty else { throw OAuthError.invalidRequest("code is missing") }
        let codeHash = OpaqueToken.hash(code)
        let binding = CodeBinding(
            clientID: client.id, redirectURI: request.redirectURI, codeChallenge: request.codeVerifier.map(TokenHash.pkceChallenge(forVerifier:)))
        // The tokens are made first, so that consuming the code and storing them are one step: were
        // the code consumed and the insert then to fail, the client's retry would look like a replay
        // and revoke the grant. That step also reads the grant; when it refuses, the code is read
        // again to tell why, and only a replay writes (its revocation).
        let minted = tokens.make(now: now, withRefreshToken: true)
        let redeemed = try await redeem(codeHash: codeHash, binding: binding, request: request, client: client, now: now, minted: minted)
        let accessToken = minted.accessToken
        let kind = IdentityTokenFactory.Kind.authorization(nonce: redeemed.code.nonce, code: nil, accessToken: accessToken)
        let idToken = try idTokens.make(for: redeemed.grant, client: client, now: now, kind: kind, defect: defect)
        return TokenResponse(
            accessToken: accessToken, expiresIn: configuration.accessTokenLifetime, refreshToken: minted.refreshToken, idToken: idToken)
    }

    /// Redeems the code in the store's one atomic step, which stores the tokens too. When that step
    /// refuses, nothing has changed, and ``refusal(codeHash:request:client:now:)`` reads why. Should it
    /// find nothing wrong (the code or its grant changed between the two reads), the atomic step is
    /// tried once more: a code is never consumed apart from the tokens it issues.
    private func redeem(
        codeHash: String, binding: CodeBinding, request: TokenRequest, client: RegisteredClient, now: Date, minted: MintedTokens
    ) async throws -> RedeemedCode {
        for _ in 0..<2 {
            if let redeemed = try await store.redeemCode(hash: codeHash, binding: binding, at: clock.now(), validAt: now, issuing: minted.tokens) {
                return redeemed
            }
            try await refusal(codeHash: codeHash, request: request, client: client, now: now)
        }
        throw OAuthError.invalidGrant(
            AppleErrorDescription.codeExpiredOrRevoked, reason: "the code or its authorization changed while it was being redeemed")
    }

    /// Throws the reason the atomic step refused the code; returns when the code, as read now, would
    /// be redeemable. Only a replay writes: it revokes the grant.
    private func refusal(codeHash: String, request: TokenRequest, client: RegisteredClient, now: Date) async throws {
        // The code is checked against what it is bound to before anything else: a client that holds
        // someone else's code (even with a valid secret of its own) must not, through the replay rule
        // below, revoke the grant it belongs to.
        guard let issued = try await store.authorizationCode(hash: codeHash) else {
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the code was never issued")
        }
        try checkBinding(of: issued, request: request, client: client)
        if issued.consumedAt != nil {
            // A second redemption by the client the code was issued to, with its redirect_uri and
            // verifier, means the code leaked: whoever holds the tokens of the first redemption may
            // be the thief, so everything that code issued is revoked (RFC 6749 §4.1.2). The
            // revocation reads the clock when it happens, so it is never older than the redemption.
            try await store.revokeGrant(id: issued.grantID, at: clock.now())
            throw OAuthError.invalidGrant(AppleErrorDescription.codeAlreadyUsed, reason: Self.replayReason(issued, codeHash: codeHash))
        }
        guard issued.expiresAt > now else {
            throw OAuthError.invalidGrant(
                AppleErrorDescription.codeExpiredOrRevoked,
                reason: "the code expired \(Int(now.timeIntervalSince(issued.expiresAt))) s ago")
        }
        guard let grant = try await store.grant(id: issued.grantID), grant.revokedAt == nil else {
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the authorization was revoked")
        }
    }

    /// Which code was reused and when it was first redeemed, for the log and the console's Requests
    /// page: the code itself is never shown, only the first 8 hex digits of its SHA-256 (the hash the
    /// store keeps), which identifies it among the client's codes without letting anyone redeem it.
    static func replayReason(_ used: AuthorizationCodeRecord, codeHash: String) -> String {
        let redeemed = used.consumedAt.map { " at \($0.ISO8601Format())" } ?? ""
        return "the code with SHA-256 \(codeHash.prefix(8))… was already redeemed\(redeemed); "
            + "every token issued from it is now revoked (a reused code means it leaked)"
    }

    /// The client, `redirect_uri` and PKCE verifier the code was issued for (spec §4.1).
    private func checkBinding(of record: AuthorizationCodeRecord, request: TokenRequest, client: RegisteredClient) throws {
        guard record.clientID.rawValue.utf8.elementsEqual(client.id.rawValue.utf8) else {
            throw OAuthError.invalidGrant(
                AppleErrorDescription.clientIDMismatch(client.id), reason: "the code was issued to \(record.clientID), not \(client.id)")
        }
        guard WireMatch.exact(request.redirectURI, record.redirectURI) else {
            throw OAuthError.invalidGrant(
                AppleErrorDescription.redirectURIMismatch(request.redirectURI ?? ""),
                reason:
                    "redirect_uri \(request.redirectURI ?? "(none)") differs from the authorization's \(record.redirectURI ?? "(none, native code)")")
        }
        try checkProofKey(record: record, verifier: request.codeVerifier)
    }

    /// RFC 7636 §4.6, and a verifier without a challenge is refused too (RFC 9700 §2.1.1: it
    /// would let an attacker downgrade a PKCE-bound flow).
    private func checkProofKey(record: AuthorizationCodeRecord, verifier: String?) throws {
        switch (record.codeChallenge, verifier) {
        case (nil, nil):
            return
        case (nil, .some):
            throw OAuthError.invalidGrant(
                AppleErrorDescription.codeExpiredOrRevoked, reason: "code_verifier sent but the authorization had no code_challenge")
        case (.some, nil):
            throw OAuthError.invalidGrant(
                AppleErrorDescription.codeExpiredOrRevoked, reason: "the authorization had a code_challenge; code_verifier is missing")
        case (.some(let challenge), .some(let verifier)):
            guard WireMatch.exact(TokenHash.pkceChallenge(forVerifier: verifier), challenge) else {
                throw OAuthError.invalidGrant(
                    AppleErrorDescription.codeExpiredOrRevoked, reason: "code_verifier does not match the code_challenge (S256)")
            }
        }
    }
}
