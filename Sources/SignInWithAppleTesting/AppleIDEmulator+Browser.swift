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

    /// Completes a sign-in run by Sign in with Apple JS with `script`'s options (its `init`, or the
    /// page's meta tags): the request the script sends (`response_mode` `web_message` for the popup,
    /// `form_post` for its redirect, no PKCE), approved by `appleID`. Returns what the popup hands to
    /// the page (post it to your popup route), or what Apple's page posts to your callback.
    public func approve(_ script: ScriptSignIn, as appleID: String, choices: ConsentChoices? = nil) async throws -> AuthorizationCallback {
        let fields: [(String, String?)] = [
            ("client_id", script.clientID), ("redirect_uri", script.redirectURI), ("response_type", "code id_token"), ("state", script.state),
            ("scope", script.scope), ("nonce", script.nonce), ("response_mode", script.usePopup ? "web_message" : "form_post"),
            ("frame_id", UUID().uuidString.lowercased()), ("m", "12"), ("v", "1.5.5"),
        ]
        return try await approve(authorizationURL: baseURL + "/auth/authorize?" + FormURLEncoding.join(fields), as: appleID, choices: choices)
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

extension ScriptSignIn {
    /// The options a page handed to `AppleID.auth.init` (``initOptionsJSON``), read back: for a test
    /// that renders your page and then plays the script's side with `AppleIDEmulator.approve(_:as:choices:)` with it.
    public init(initOptionsJSON json: String) throws {
        struct Options: Decodable {
            var clientId, scope, redirectURI, state, nonce: String
            var usePopup: Bool
        }
        let options = try JSONDecoder().decode(Options.self, from: Data(json.utf8))
        self.init(
            clientID: options.clientId, scope: options.scope, redirectURI: options.redirectURI, state: options.state, nonce: options.nonce,
            usePopup: options.usePopup, scriptURL: "")
    }
}
