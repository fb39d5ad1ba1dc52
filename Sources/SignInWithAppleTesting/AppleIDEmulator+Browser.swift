import AppleIDProtocol
import AppleIDProvider
import Foundation
import SignInWithApple

extension AppleIDEmulator {
    /// Completes the authorization an app redirected the browser to (the `Location` of its answer),
    /// as ``approve(_:as:choices:)`` does for a ``PendingAuthorization``.
    public func approve(authorizationURL: String, as appleID: String, choices: ConsentChoices? = nil) async throws -> AuthorizationCallback {
        guard let query = URLComponents(string: authorizationURL)?.queryItems else { throw EmulatorError.notAnAuthorizationURL }
        let parameters = Dictionary(query.map { ($0.name, $0.value ?? "") }, uniquingKeysWith: { first, _ in first })
        let request = AuthorizationRequest(
            clientID: parameters["client_id"], redirectURI: parameters["redirect_uri"], responseType: parameters["response_type"],
            responseMode: parameters["response_mode"], scope: parameters["scope"], state: parameters["state"], nonce: parameters["nonce"],
            codeChallenge: parameters["code_challenge"], codeChallengeMethod: parameters["code_challenge_method"])
        return try callback(from: try await provider.authorizeHeadless(request, appleID: appleID, choices: choices))
    }
}

extension AuthorizationCallback {
    /// The `application/x-www-form-urlencoded` body Apple's `form_post` page would submit.
    public var formBody: String {
        FormURLEncoding.join([
            ("code", code), ("id_token", idToken), ("state", state), ("user", try? user?.jsonString()), ("error", error),
        ])
    }
}
