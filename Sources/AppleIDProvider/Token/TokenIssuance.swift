import AppleIDProtocol
import Foundation

/// Makes access and refresh tokens and stores their hashes, in one insert.
struct TokenIssuance: Sendable {
    let store: any GrantStore
    let random: any RandomSource
    let configuration: ProviderConfiguration

    /// A new access token, and a refresh token when `withRefreshToken` (code grant only), not yet
    /// stored: a code exchange stores them in the step that consumes the code.
    func make(now: Date, withRefreshToken: Bool) -> MintedTokens {
        let accessToken = OpaqueToken.make(.accessToken, random: random)
        var tokens = [
            NewToken(
                tokenHash: OpaqueToken.hash(accessToken), kind: .access, createdAt: now,
                expiresAt: now.addingTimeInterval(TimeInterval(configuration.accessTokenLifetime)))
        ]
        var refreshToken: String?
        if withRefreshToken {
            let token = OpaqueToken.make(.refreshToken, random: random)
            tokens.append(NewToken(tokenHash: OpaqueToken.hash(token), kind: .refresh, createdAt: now, expiresAt: nil))
            refreshToken = token
        }
        return MintedTokens(accessToken: accessToken, refreshToken: refreshToken, tokens: tokens)
    }

    /// Stores `minted` under `grant`.
    func store(_ minted: MintedTokens, under grant: Grant) async throws {
        try await store.insert(minted.tokens.map { $0.record(under: grant) })
    }

    /// A new access token (and refresh token when `withRefreshToken`), stored under `grant`.
    func issue(for grant: Grant, now: Date, withRefreshToken: Bool) async throws -> MintedTokens {
        let minted = make(now: now, withRefreshToken: withRefreshToken)
        try await store(minted, under: grant)
        return minted
    }
}

/// Tokens made for one answer: the strings for the client, the hashes for the store.
struct MintedTokens: Sendable {
    let accessToken: String
    let refreshToken: String?
    let tokens: [NewToken]
}
