import AppleIDProtocol
import AsyncHTTPClient
import Foundation
import JWTKit
import NIOCore

extension TutorialApp {
    /// Exchanges the code and verifies the id_token of the answer, as the tutorial does (skipping what
    /// the flaw skips). Nil when anything is wrong.
    func exchange(_ code: String, nonce: String, verifier: String?, formToken: String?) async throws -> (IdentityTokenClaims, String?)? {
        var fields = ["code": code, "grant_type": "authorization_code", "redirect_uri": redirectURI]
        if codeBinding == .pkceS256 { fields["code_verifier"] = verifier }
        guard let response = try? await post("/auth/token", fields), response.status == .ok,
            let body = try? await response.body.collect(upTo: 1 << 20),
            let answer = try? JSONDecoder().decode(TokenResponse.self, from: Data(buffer: body)), let idToken = answer.idToken
        else { return nil }
        guard let claims = try await verify(idToken, accessToken: answer.accessToken, nonce: nonce) else { return nil }
        guard identityTokens == .both else { return (claims, answer.refreshToken) }
        // The form's id_token, when there is one, must name the same user as the verified one.
        if let formToken, let formClaims = try? Self.unverifiedClaims(formToken), formClaims.subject != claims.subject { return nil }
        return (claims, answer.refreshToken)
    }

    /// POSTs `fields` to the server's `path`, authenticated with a new client secret.
    func post(_ path: String, _ fields: [String: String]) async throws -> HTTPClientResponse {
        let secret = try await ClientSecretMinter(
            teamID: TeamID(rawValue: settings.teamID), keyID: KeyID(rawValue: settings.keyID), privateKeyPEM: settings.privateKeyPEM
        ).mint(clientID: ClientID(rawValue: settings.clientID), audience: settings.server, issuedAt: Date(), lifetime: 300)
        var request = HTTPClientRequest(url: settings.server + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        let form = fields.merging(["client_id": settings.clientID, "client_secret": secret]) { $1 }
        request.body = .bytes(
            ByteBuffer(string: form.map { "\($0)=\($1.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")" }.joined(separator: "&")))
        return try await HTTPClient.shared.execute(request, timeout: settings.tokenTimeout)
    }

    private func verify(_ token: String, accessToken: String, nonce: String) async throws -> IdentityTokenClaims? {
        let claims: IdentityTokenClaims
        if flaw == .algNoneAccepted, let header = try? Self.segment(token, 0), header.contains(#""alg":"none""#) {
            claims = try Self.unverifiedClaims(token)
        } else {
            guard let verified = try? await serverKeys().verify(token, as: IdentityTokenClaims.self) else { return nil }
            claims = verified
        }
        let now = Int(Date().timeIntervalSince1970)
        guard claims.issuer == (try await expectedIssuer()) else { return nil }
        guard flaw == .audienceNotChecked || claims.audience == settings.clientID else { return nil }
        guard flaw == .expiredAccepted || claims.expiresAt > now - 60 else { return nil }
        guard claims.issuedAt <= now + 60 else { return nil }
        // `nonceOptional`: compared only when the token carries one. An app that sends no nonce checks none.
        guard flaw == .nonceIgnored || codeBinding != .nonce || claims.nonce == nonce || (flaw == .nonceOptional && claims.nonce == nil) else {
            return nil
        }
        guard identityTokens == .tokenResponseOnly || claims.accessTokenHash.map({ $0 == TokenHash.of(accessToken) }) ?? true else {
            return nil
        }
        return claims
    }

    /// The server's issuer; `issuerFromDiscovery`: the `issuer` of the discovery document, read where
    /// the check shows the app its own (`?client_id=`), as Apple answers that URL too.
    func expectedIssuer() async throws -> String {
        guard flaw == .issuerFromDiscovery else { return settings.server }
        let url = settings.server + "/.well-known/openid-configuration?client_id=" + settings.clientID
        let answer = try await HTTPClient.shared.execute(HTTPClientRequest(url: url), timeout: .seconds(240))
        let document = try JSONDecoder().decode(DiscoveryDocument.self, from: Data(buffer: try await answer.body.collect(upTo: 1 << 20)))
        return document.issuer
    }

    /// The keys of /auth/keys, fetched for each verification as the tutorial does (`keysCachedForever`:
    /// fetched once).
    func serverKeys() async throws -> JWTKeyCollection {
        let keys = JWTKeyCollection()
        if flaw == .keysCachedForever, let cached = cachedKeySet.withLock({ $0 }) {
            try await keys.add(jwksJSON: cached)
            return keys
        }
        let jwks = try await HTTPClient.shared.execute(HTTPClientRequest(url: settings.server + "/auth/keys"), timeout: .seconds(240))
        let json = String(buffer: try await jwks.body.collect(upTo: 1 << 20))
        if flaw == .keysCachedForever { cachedKeySet.withLock { $0 = json } }
        try await keys.add(jwksJSON: json)
        return keys
    }

    static func unverifiedClaims(_ token: String) throws -> IdentityTokenClaims {
        try JSONDecoder().decode(IdentityTokenClaims.self, from: Data(try segment(token, 1).utf8))
    }

    static func segment(_ token: String, _ index: Int) throws -> String {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw MalformedToken() }
        return String(decoding: try Base64URL.decode(String(parts[index])), as: UTF8.self)
    }
}

struct MalformedToken: Error {}
