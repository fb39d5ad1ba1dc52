import AppleIDProtocol
import Foundation

/// What an app stores with an account to act on the authorization later: the refresh token and the
/// client ID it was issued to (a native app's codes are redeemed with the App ID, the web's with the
/// Services ID, and a refresh token works only with its own client ID).
public struct AppleGrant: Sendable, Hashable, Codable {
    public var refreshToken: String
    public var clientID: String

    public init(refreshToken: String, clientID: String) {
        self.refreshToken = refreshToken
        self.clientID = clientID
    }
}

/// What a refresh found: the authorization stands, or it was revoked.
public enum RefreshResult: Sendable, Hashable {
    /// A new access token, and the id_token that came with it, verified like any other.
    case refreshed(identity: VerifiedIdentityToken, tokens: TokenResponse)
    /// Apple answered `invalid_grant`: the refresh token is revoked, because the user stopped using
    /// Sign in with Apple with the app, deleted their Apple ID, or the app revoked it. Sign the user
    /// out and forget the grant; the refusal says what Apple answered.
    case revoked(AppleRefusal)
}

/// What ``SignInWithAppleClient/validate(_:force:)`` found.
public enum GrantValidation: Sendable, Hashable {
    case valid(VerifiedIdentityToken)
    case revoked(AppleRefusal)
    /// Checked less than ``SignInWithAppleClient/Configuration/grantValidationInterval`` ago: Apple
    /// was not asked again.
    case notDue
}

extension SignInWithAppleClient {
    /// Refreshes a grant with its own client ID and verifies the id_token Apple sends back
    /// (signature, issuer, audience, times, `at_hash`).
    ///
    /// ```swift
    /// switch try await siwa.refresh(account.grant) {
    /// case .refreshed(let identity, _): precondition(identity.subject == account.subject)
    /// case .revoked: try await accounts.signOut(account)   // and drop the grant
    /// }
    /// ```
    ///
    /// Only `invalid_grant` means revoked; other refusals, network errors and an id_token that does
    /// not verify are thrown.
    public func refresh(_ grant: AppleGrant) async throws -> RefreshResult {
        let client = try tokens(for: grant.clientID)
        let response: TokenResponse
        do {
            response = try await client.refresh(refreshToken: grant.refreshToken)
        } catch let error as AppleServiceError {
            guard let refusal = error.refusal, refusal.code == .invalidGrant else { throw error }
            return .revoked(refusal)
        }
        guard let idToken = response.idToken else {
            throw AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")
        }
        let identity = try await identityTokens.verify(idToken, accessToken: response.accessToken)
        guard WireMatch.exact(identity.audience, grant.clientID) else { throw IdentityTokenError.wrongAudience(identity.audience) }
        return .refreshed(identity: identity, tokens: response)
    }

    /// Apple's daily check that a user still authorizes the app: a refresh, at most once per
    /// ``Configuration/grantValidationInterval`` for a grant (kept in the client's storage, so
    /// several instances share it) unless `force`d. A check that fails with an error can be
    /// repeated at once.
    public func validate(_ grant: AppleGrant, force: Bool = false) async throws -> GrantValidation {
        let key = SealedEntry.key(.validated, secret: grant.clientID + "\u{0}" + grant.refreshToken)
        let now = clock()
        let due = try await storage.insert([], forKey: key, expiresAt: now.addingTimeInterval(configuration.grantValidationInterval), now: now)
        guard due || force else { return .notDue }
        do {
            switch try await refresh(grant) {
            case .refreshed(let identity, _): return .valid(identity)
            case .revoked(let refusal): return .revoked(refusal)
            }
        } catch {
            _ = try? await storage.take(key)
            throw error
        }
    }

    /// Revokes a grant (the user deleted their account in your app): Apple then sends the user's
    /// next sign-in through consent again, and notifies nothing.
    public func revoke(_ grant: AppleGrant) async throws {
        try await tokens(for: grant.clientID).revoke(token: grant.refreshToken, hint: .refreshToken)
    }
}
