import AppleIDProtocol
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import JWTKit
import ServerTestSupport

/// A relying party's side of the protocol for the in-process tests: the admin API for cheap codes,
/// `/auth/token`, `/auth/revoke`, and id_token verification against `/auth/keys`.
enum RP {
    /// `POST /admin/authorizations` (headless authorization): the order's fields as the admin API names them.
    struct Order: Encodable, Sendable {
        var clientID = TestServer.servicesID.rawValue
        var redirectURI = TestServer.redirectURI
        var appleID = TestServer.maria.appleID
        var responseType: String?
        var responseMode: String?
        var scope: String?
        var state: String?
        var nonce: String?
        var codeChallenge: String?
        var codeChallengeMethod: String?
        var hideEmail: Bool?
        var count: Int?

        enum CodingKeys: String, CodingKey {
            case clientID = "client_id"
            case redirectURI = "redirect_uri"
            case appleID = "apple_id"
            case responseType = "response_type"
            case responseMode = "response_mode"
            case scope, state, nonce
            case codeChallenge = "code_challenge"
            case codeChallengeMethod = "code_challenge_method"
            case hideEmail = "hide_email"
            case count
        }
    }

    private struct Results: Decodable {
        var results: [[String: String]]
    }

    static let adminHeaders: HTTPFields = [
        .contentType: "application/json", .authorization: "Bearer \(TestServer.adminToken)",
    ]

    /// Every answer of a headless authorization through the admin API.
    static func authorizeAll(_ client: any TestClientProtocol, _ order: Order = Order()) async throws -> [[String: String]] {
        let response = try await client.execute(
            uri: "/admin/authorizations", method: .post, headers: adminHeaders,
            body: ByteBuffer(bytes: try JSONEncoder().encode(order)))
        guard response.status == .ok else { throw UnexpectedResponse(status: response.status, body: response.text) }
        return try JSONDecoder().decode(Results.self, from: Data(buffer: response.body)).results
    }

    /// The one answer of a headless authorization through the admin API.
    static func authorize(_ client: any TestClientProtocol, _ order: Order = Order()) async throws -> [String: String] {
        guard let first = try await authorizeAll(client, order).first else {
            throw UnexpectedResponse(status: .ok, body: "no results")
        }
        return first
    }

    /// A fresh authorization code for the web Services ID.
    static func code(_ client: any TestClientProtocol, _ order: Order = Order()) async throws -> String {
        guard let code = try await authorize(client, order)["code"] else { throw UnexpectedResponse(status: .ok, body: "no code") }
        return code
    }

    struct UnexpectedResponse: Error, CustomStringConvertible {
        var status: HTTPResponse.Status
        var body: String
        var description: String { "unexpected \(status.code): \(body)" }
    }

    /// A form POST (`application/x-www-form-urlencoded`).
    static func post(_ client: any TestClientProtocol, _ path: String, _ fields: [(String, String)]) async throws -> TestResponse {
        try await client.execute(uri: path, method: .post, headers: Form.headers, body: ByteBuffer(string: Form.encode(fields)))
    }

    /// `grant_type=authorization_code`; `nil` leaves a field out.
    static func redeem(
        _ client: any TestClientProtocol, code: String, secret: String, clientID: ClientID = TestServer.servicesID,
        redirectURI: String? = TestServer.redirectURI, verifier: String? = nil
    ) async throws -> TestResponse {
        var fields = [
            ("client_id", clientID.rawValue), ("client_secret", secret), ("code", code), ("grant_type", "authorization_code"),
        ]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        if let verifier { fields.append(("code_verifier", verifier)) }
        return try await post(client, "/auth/token", fields)
    }

    /// `grant_type=refresh_token`.
    static func refresh(
        _ client: any TestClientProtocol, refreshToken: String, secret: String, clientID: ClientID = TestServer.servicesID
    ) async throws -> TestResponse {
        try await post(
            client, "/auth/token",
            [("client_id", clientID.rawValue), ("client_secret", secret), ("grant_type", "refresh_token"), ("refresh_token", refreshToken)])
    }

    /// `POST /auth/revoke`.
    static func revoke(
        _ client: any TestClientProtocol, token: String?, hint: String? = nil, secret: String,
        clientID: ClientID = TestServer.servicesID
    ) async throws -> TestResponse {
        var fields = [("client_id", clientID.rawValue), ("client_secret", secret)]
        if let token { fields.append(("token", token)) }
        if let hint { fields.append(("token_type_hint", hint)) }
        return try await post(client, "/auth/revoke", fields)
    }

    /// The keys of `/auth/keys`, as a relying party loads them.
    static func keys(_ client: any TestClientProtocol) async throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        let jwks = try await client.execute(uri: "/auth/keys", method: .get)
        try await keys.add(jwksJSON: jwks.text)
        return keys
    }

    /// Verifies an id_token's RS256 signature against `/auth/keys` and returns its claims.
    static func verify(_ idToken: String, _ client: any TestClientProtocol) async throws -> IdentityTokenClaims {
        try await keys(client).verify(idToken, as: IdentityTokenClaims.self)
    }

    /// The decoded text of segment `index` (0 header, 1 payload) of a compact JWS.
    static func segment(_ jws: String, _ index: Int) throws -> String {
        let parts = jws.split(separator: ".", omittingEmptySubsequences: false)
        return String(decoding: try Base64URL.decode(String(parts[index])), as: UTF8.self)
    }
}

extension TestResponse {
    /// The body as a JSON object of strings (OAuth error answers).
    func jsonStrings() throws -> [String: String] {
        try JSONDecoder().decode([String: String].self, from: Data(buffer: body))
    }

    /// The body as a token response.
    func tokens() throws -> TokenResponse {
        try JSONDecoder().decode(TokenResponse.self, from: Data(buffer: body))
    }
}

/// Client secrets built by hand, including the ones `ClientSecretMinter` refuses to build.
enum Secrets {
    static let nowSeconds = Int(Fixtures.now.timeIntervalSince1970)

    static func claims(
        issuer: String = TestServer.teamID.rawValue, issuedAt: Int = nowSeconds, lifetime: Int = 300,
        audience: String = TestServer.issuer, subject: String = TestServer.servicesID.rawValue
    ) -> ClientSecretClaims {
        ClientSecretClaims(issuer: issuer, issuedAt: issuedAt, expiresAt: issuedAt + lifetime, audience: audience, subject: subject)
    }

    /// An ES256 JWT signed by `pem` with `kid` in its header.
    static func es256(
        _ claims: ClientSecretClaims = claims(), pem: String = Fixtures.developerKey, kid: String = TestServer.keyID.rawValue
    ) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(ecdsa: try ES256PrivateKey(pem: pem), kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// An HS256 JWT keyed with `key` (the classic algorithm-confusion secret uses the public key).
    static func hs256(_ claims: ClientSecretClaims = claims(), key: String, kid: String = TestServer.keyID.rawValue) async throws -> String {
        let keys = JWTKeyCollection()
        await keys.add(hmac: HMACKey(from: key), digestAlgorithm: .sha256, kid: JWKIdentifier(string: kid))
        return try await keys.sign(claims, kid: JWKIdentifier(string: kid))
    }

    /// A JWS with the given raw header JSON, the claims as payload and the given signature segment.
    static func raw(header: String, _ claims: ClientSecretClaims = claims(), signature: String = "") throws -> String {
        Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(try JSONEncoder().encode(claims))) + "." + signature
    }
}
