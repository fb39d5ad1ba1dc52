import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The token endpoints of the engine, called as an app server calls Apple's: with a client secret
/// signed by a key the team made in the console.
extension ProviderHarness {
    static let teamA: TeamID = "TEAMAAAAAA"
    static let teamB: TeamID = "TEAMBBBBBB"

    /// A client secret for `group`'s web client, signed by a new key of `team`, issued now.
    func clientSecret(group: String = "com.a.app", team: TeamID = Self.teamA) async throws -> String {
        let key = try await provider.createKey(teamID: team, primaryAppID: ClientID(rawValue: group), name: "Engine key")
        let pem = try await provider.downloadKey(key.id, teamID: team)
        return try await ClientSecretMinter(teamID: team, keyID: key.id, privateKeyPEM: pem)
            .mint(clientID: ClientID(rawValue: group + ".web"), issuedAt: clock.now(), lifetime: 3600)
    }

    /// An authorization code for `group`'s web client, approved for Maria.
    func code(group: String = "com.a.app") async throws -> String {
        try await authorize(group: group, hideEmail: false).issued?.code ?? { throw HarnessError.notAnswered }()
    }

    func redeem(_ code: String, group: String = "com.a.app", secret: String, redirectURI: String? = nil) async -> Result<TokenResponse, OAuthError> {
        await provider.token(
            TokenRequest(
                grantType: "authorization_code", clientID: group + ".web", clientSecret: secret, code: code,
                redirectURI: redirectURI ?? "https://\(group)/callback"))
    }

    func refresh(_ refreshToken: String, group: String = "com.a.app", secret: String) async -> Result<TokenResponse, OAuthError> {
        await provider.token(
            TokenRequest(grantType: "refresh_token", clientID: group + ".web", clientSecret: secret, refreshToken: refreshToken))
    }

    func revoke(_ token: String, group: String = "com.a.app", secret: String, hint: String? = nil) async -> Result<Void, OAuthError> {
        await provider.revoke(RevocationRequest(clientID: group + ".web", clientSecret: secret, token: token, tokenTypeHint: hint))
    }
}

extension Result {
    /// The failure, or nil when the call succeeded.
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
