import AppleIDProtocol
import Foundation

/// A completed sign-in.
public struct SignInResult: Sendable, Hashable {
    /// The verified identity: ``VerifiedIdentityToken/subject`` is the account key, and
    /// ``VerifiedIdentityToken/email`` the e-mail to trust.
    public var identity: VerifiedIdentityToken
    /// The name, sent only on the user's first authorization: store it now, it never comes again.
    public var profile: FirstAuthorizationProfile?
    /// The token endpoint's answer; keep ``grant`` rather than the raw refresh token.
    public var tokens: TokenResponse
    /// The `state` of the authorization this result completes: the key under which an app kept what
    /// the sign-in was for (plain sign-in, linking an existing account, a page to return to).
    public var state: String

    public init(identity: VerifiedIdentityToken, profile: FirstAuthorizationProfile?, tokens: TokenResponse, state: String) {
        self.identity = identity
        self.profile = profile
        self.tokens = tokens
        self.state = state
    }

    /// Whether this is the user's first authorization of the app group.
    public var isFirstAuthorization: Bool { profile != nil }

    /// What to store with the account to refresh, check and revoke the authorization later: the
    /// refresh token with the client ID it belongs to.
    public var grant: AppleGrant? {
        tokens.refreshToken.map { AppleGrant(refreshToken: $0, clientID: identity.audience) }
    }
}

/// A verified sign-in waiting for its browser, as kept (sealed) under the completion token.
struct ParkedSignIn: Codable, Sendable {
    var browserHash: String
    var claims: IdentityTokenClaims
    var keyID: String
    var notBefore: Int?
    var profile: FirstAuthorizationProfile?
    var tokens: TokenResponse
    var state: String

    init(_ result: SignInResult, browserHash: String) {
        self.browserHash = browserHash
        self.claims = result.identity.claims
        self.keyID = result.identity.keyID
        self.notBefore = result.identity.notBefore.map { Int($0.timeIntervalSince1970) }
        self.profile = result.profile
        self.tokens = result.tokens
        self.state = result.state
    }

    func result() throws -> SignInResult {
        SignInResult(
            identity: VerifiedIdentityToken(claims: claims, keyID: keyID, notBefore: notBefore), profile: profile, tokens: tokens,
            state: state)
    }
}
