import AppleIDProtocol
import Crypto
import Foundation

/// Builds the URL that sends a browser to Apple's authorization page (spec §3.1).
///
/// `response_mode` is forced to `form_post` whenever `name` or `email` is asked, as Apple requires;
/// `state` is random; a nonce is always sent; PKCE (S256) is on by default.
public struct AuthorizationRequestBuilder: Sendable {
    public let environment: AppleEnvironment
    public let clientID: String

    public init(environment: AppleEnvironment, clientID: String) {
        self.environment = environment
        self.clientID = clientID
    }

    public func makeRequest(
        redirectURI: String, scopes: [Scope] = [.name, .email], responseType: ResponseType = .codeIDToken,
        responseMode: ResponseMode? = nil, nonceConvention: Nonce.Convention = .plain, usePKCE: Bool = true
    ) -> PendingAuthorization {
        let asksForUserData = scopes.contains(.name) || scopes.contains(.email)
        var mode = responseMode ?? (responseType.includesIDToken ? .fragment : .query)
        if asksForUserData && mode != .webMessage { mode = .formPost }
        if responseType.includesIDToken && mode == .query { mode = .fragment }
        let state = Self.randomToken()
        let nonce = Nonce.random(convention: nonceConvention)
        let verifier = usePKCE ? Self.randomToken() + Self.randomToken() : nil

        var items: [(String, String)] = [
            ("client_id", clientID), ("redirect_uri", redirectURI), ("response_type", responseType.rawValue), ("state", state),
        ]
        if !scopes.isEmpty { items.append(("scope", Scope.join(scopes))) }
        items.append(("response_mode", mode.rawValue))
        items.append(("nonce", nonce.transmittedValue))
        if let verifier {
            items.append(("code_challenge", TokenHash.pkceChallenge(forVerifier: verifier)))
            items.append(("code_challenge_method", CodeChallengeMethod.s256.rawValue))
        }
        let query = FormURLEncoding.join(items.map { ($0.0, Optional($0.1)) })
        return PendingAuthorization(
            url: environment.authorizationEndpoint + "?" + query, state: state, nonce: nonce, codeVerifier: verifier,
            redirectURI: redirectURI, responseMode: mode)
    }

    /// 32 random bytes, base64url: unguessable, URL-safe.
    static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return Base64URL.encode((0..<4).flatMap { _ in withUnsafeBytes(of: generator.next() as UInt64, Array.init) })
    }
}

/// An authorization in flight: the URL to send the browser to, and what must be kept (keyed by
/// ``state``) to check the callback.
public struct PendingAuthorization: Sendable, Hashable, Codable {
    public var url: String
    public var state: String
    public var nonce: Nonce
    public var codeVerifier: String?
    public var redirectURI: String
    public var responseMode: ResponseMode
}

extension Nonce: Codable {
    enum CodingKeys: String, CodingKey {
        case raw, hashed
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            raw: try container.decode(String.self, forKey: .raw),
            convention: try container.decode(Bool.self, forKey: .hashed) ? .sha256 : .plain)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(raw, forKey: .raw)
        try container.encode(convention == .sha256, forKey: .hashed)
    }
}
