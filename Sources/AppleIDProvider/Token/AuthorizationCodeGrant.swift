import AppleIDProtocol
import Foundation

/// `grant_type=authorization_code` (spec §4.1): consume the code once, check what it is bound to,
/// issue access token, refresh token and id_token.
struct AuthorizationCodeGrant: Sendable {
    let store: any ProviderStore
    let tokens: TokenIssuance
    let idTokens: IdentityTokenFactory
    let configuration: ProviderConfiguration
    let clock: any ProviderClock

    /// - Parameter fault: the defect development mode's fault switch armed for this answer, if any.
    func exchange(_ request: TokenRequest, client: RegisteredClient, now: Date, fault: TokenFault? = nil) async throws -> TokenResponse {
        guard let code = request.code, !code.isEmpty else { throw OAuthError.invalidRequest("code is missing") }
        let codeHash = OpaqueToken.hash(code)
        let binding = CodeBinding(
            clientID: client.id, redirectURI: request.redirectURI, codeChallenge: request.codeVerifier.map(TokenHash.pkceChallenge(forVerifier:)))
        // The tokens are made first, so that consuming the code and storing them are one step: were
        // the code consumed and the insert then to fail, the client's retry would look like a replay
        // and revoke the grant. The common case is that one step, which also reads the grant; anything
        // else is told apart step by step below, with the same rules.
        let minted = tokens.make(now: now, withRefreshToken: true)
        let redeemed: RedeemedCode
        if let fast = try await store.redeemCode(hash: codeHash, binding: binding, at: clock.now(), validAt: now, issuing: minted.tokens) {
            redeemed = fast
        } else {
            redeemed = try await redeemStepByStep(codeHash: codeHash, request: request, client: client, now: now)
            try await tokens.store(minted, under: redeemed.grant)
        }
        let accessToken = minted.accessToken
        let kind = IdentityTokenFactory.Kind.authorization(nonce: redeemed.code.nonce, code: nil, accessToken: accessToken)
        let idToken =
            try fault.map { try idTokens.make(for: redeemed.grant, client: client, now: now, kind: kind, fault: $0) }
            ?? idTokens.make(for: redeemed.grant, client: client, now: now, kind: kind)
        return TokenResponse(
            accessToken: accessToken, expiresIn: configuration.accessTokenLifetime, refreshToken: minted.refreshToken, idToken: idToken)
    }

    /// Redeems a code the fast path refused, or throws the reason it is refused.
    private func redeemStepByStep(codeHash: String, request: TokenRequest, client: RegisteredClient, now: Date) async throws -> RedeemedCode {
        // The code is read and checked against what it is bound to before it is consumed: a client
        // that holds someone else's code (even with a valid secret of its own) must neither burn it
        // nor, through the replay rule below, revoke the grant it belongs to.
        guard let issued = try await store.authorizationCode(hash: codeHash) else {
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the code was never issued")
        }
        try checkBinding(of: issued, request: request, client: client)
        let record: AuthorizationCodeRecord
        // Consumption and a replay's revocation read the clock when they happen, not when their
        // requests began, so a revocation caused by a replay is never older than the redemption it follows.
        switch try await store.consumeCode(hash: codeHash, at: clock.now()) {
        case .unknown:
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the code was never issued")
        case .alreadyConsumed(let used):
            // A second redemption by the client the code was issued to, with its redirect_uri and
            // verifier, means the code leaked: whoever holds the tokens of the first redemption may
            // be the thief, so everything that code issued is revoked (RFC 6749 §4.1.2).
            try await store.revokeGrant(id: used.grantID, at: clock.now())
            throw OAuthError.invalidGrant(AppleErrorDescription.codeAlreadyUsed, reason: Self.replayReason(used, codeHash: codeHash))
        case .redeemed(let redeemed):
            record = redeemed
        }
        guard record.expiresAt > now else {
            throw OAuthError.invalidGrant(
                AppleErrorDescription.codeExpiredOrRevoked,
                reason: "the code expired \(Int(now.timeIntervalSince(record.expiresAt))) s ago")
        }
        // A revocation after this redemption (a concurrent replay of the same code) does not fail
        // it: the tokens issued below belong to the revoked grant and are dead on arrival, which is
        // what the replay rule asks. Only a revocation before the redemption refuses the code.
        let consumedAt = record.consumedAt ?? now
        guard let grant = try await store.grant(id: record.grantID), grant.revokedAt.map({ $0 >= consumedAt }) ?? true else {
            throw OAuthError.invalidGrant(AppleErrorDescription.codeExpiredOrRevoked, reason: "the authorization was revoked")
        }
        return RedeemedCode(code: record, grant: grant)
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
