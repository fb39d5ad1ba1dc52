import AppleIDProtocol
import Foundation

extension SignInWithAppleClient {
    /// Completes a sign-in an app on a device made with `ASAuthorizationAppleIDProvider` and sent to
    /// your backend: verifies the identity token (its `nonce` is the SHA-256 of `rawNonce`, the
    /// native convention), exchanges the authorization code with the token's own client ID (the App
    /// ID), and checks both tokens name the same user.
    ///
    /// ```swift
    /// let result = try await siwa.completeNativeSignIn(
    ///     identityToken: body.identityToken, authorizationCode: body.authorizationCode,
    ///     rawNonce: session.rawNonce, user: body.fullName.map { .init(firstName: $0.givenName, lastName: $0.familyName) })
    /// try await accounts.signIn(subject: result.identity.subject, grant: result.grant, name: result.profile?.name)
    /// ```
    ///
    /// - Parameters:
    ///   - rawNonce: The nonce the app generated; `nil` if it sent none.
    ///   - user: The name the app received (on the first authorization only; the device gets it from
    ///     `ASAuthorizationAppleIDCredential.fullName`, not signed).
    public func completeNativeSignIn(
        identityToken: String, authorizationCode: String, rawNonce: String?, user: AuthorizedUser.Name? = nil
    ) async throws -> SignInResult {
        let nonce = rawNonce.map { Nonce(raw: $0, convention: .sha256) }
        let presented = try await identityTokens.verify(identityToken, nonce: nonce)
        let client = try tokens(for: presented.audience)
        let response = try await client.exchange(code: authorizationCode, redirectURI: nil)
        do {
            guard let idToken = response.idToken else {
                throw AppleServiceError.unexpectedResponse(status: 200, reason: "the token response has no id_token")
            }
            let identity = try await identityTokens.verify(idToken, accessToken: response.accessToken)
            guard identity.subject == presented.subject else { throw CallbackError.subjectMismatch }
            let profile = user.map { FirstAuthorizationProfile(name: $0) }
            return SignInResult(identity: identity, profile: profile, tokens: response, state: "")
        } catch {
            await giveBack(response, clientID: presented.audience)
            throw error
        }
    }
}
