import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import JWTKit
import Synchronization

/// `/playground`: a relying party built into the server on the demo Services ID. One click runs the
/// web flow; the callback page shows the fields, the token response, the verified id_token, and the
/// precise reason of any refusal (the diagnostic Apple never gives).
struct PlaygroundEndpoints {
    let provider: AppleIDProvider
    let renderer: PageRenderer
    let facts: DemoFacts
    let minter: ClientSecretMinter
    let redirectURI: String
    let pending = PendingStates()

    struct CallbackForm: Decodable {
        var code: String?
        var idToken: String?
        var state: String?
        var user: String?
        var error: String?
        var refreshToken: String?
        enum CodingKeys: String, CodingKey {
            case code
            case idToken = "id_token"
            case state, user, error
            case refreshToken = "refresh_token"
        }
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/playground") { _, _ in
            let state = provider.random.hex(bytes: 16)
            let nonce = provider.random.hex(bytes: 16)
            pending.remember(state: state, nonce: nonce, now: provider.clock.now())
            return try renderer.render(
                PlaygroundStart(clientID: facts.servicesID.rawValue, redirectURI: redirectURI, state: state, nonce: nonce),
                template: "playground")
        }
        router.post("/playground/callback") { request, _ in
            let form = try await decode(request)
            var result = PlaygroundResult(action: "Callback")
            let received = [
                ("code", form.code), ("id_token", form.idToken), ("state", form.state), ("user", form.user), ("error", form.error),
            ]
            result.callback = PlaygroundResult.Callback(
                fields: received.compactMap { name, value in value.map { PlaygroundResult.Field(name: name, value: $0) } })
            let nonce = form.state.flatMap { pending.take(state: $0, now: provider.clock.now()) }
            result.stateCheck =
                nonce == nil ? "state is unknown, expired or already used: refusing the callback" : "state matches this browser's request"
            if let nonce, let code = form.code {
                await exchange(
                    TokenRequest(
                        grantType: GrantType.authorizationCode.rawValue, clientID: facts.servicesID.rawValue, code: code, redirectURI: redirectURI),
                    nonce: nonce, into: &result)
            }
            return try renderer.render(result, template: "playground_result")
        }
        router.post("/playground/refresh") { request, _ in
            let form = try await decode(request)
            var result = PlaygroundResult(action: "Refresh")
            await exchange(
                TokenRequest(grantType: GrantType.refreshToken.rawValue, clientID: facts.servicesID.rawValue, refreshToken: form.refreshToken),
                nonce: nil, into: &result)
            result.refreshToken = form.refreshToken
            return try renderer.render(result, template: "playground_result")
        }
        router.post("/playground/revoke") { request, _ in
            let form = try await decode(request)
            var result = PlaygroundResult(action: "Revoke")
            let secret = try await clientSecret()
            switch await provider.revoke(
                RevocationRequest(clientID: facts.servicesID.rawValue, clientSecret: secret, token: form.refreshToken, tokenTypeHint: "refresh_token")
            )
            {
            case .success: result.revoked = true
            case .failure(let error): result.tokenError = .init(error)
            }
            return try renderer.render(result, template: "playground_result")
        }
    }

    /// The posted form. One that cannot be read (repeated, badly encoded, too large, not a form) is the
    /// browser's mistake, a 400 page, as on the account pages; the decoder's `OAuthError` renders nothing
    /// itself, and left unhandled it answered 500 (found by Interop/malformed_load.py).
    private func decode(_ request: Request) async throws -> CallbackForm {
        do {
            return try await FormDecoding.decodeForm(CallbackForm.self, from: request)
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read.")
        }
    }

    private func clientSecret() async throws -> String {
        try await minter.mint(clientID: facts.servicesID, audience: provider.configuration.issuer, issuedAt: provider.clock.now(), lifetime: 300)
    }

    private func exchange(_ request: TokenRequest, nonce: String?, into result: inout PlaygroundResult) async {
        var request = request
        do {
            request.clientSecret = try await clientSecret()
        } catch {
            result.tokenError = .init(error: "client secret", description: nil, reason: "\(error)")
            return
        }
        switch await provider.token(request) {
        case .failure(let error):
            result.tokenError = .init(error)
        case .success(let response):
            result.tokenResponse = PlaygroundResult.prettyJSON(response)
            result.refreshToken = response.refreshToken ?? request.refreshToken
            if let idToken = response.idToken { await verify(idToken, nonce: nonce, into: &result) }
        }
    }

    /// Verifies the id_token the way a relying party must: signature by `kid` against `/auth/keys`,
    /// then issuer, audience, expiry and nonce.
    private func verify(_ idToken: String, nonce: String?, into result: inout PlaygroundResult) async {
        let parts = idToken.split(separator: ".").map(String.init)
        if parts.count == 3 {
            result.idTokenHeader = (try? Base64URL.decode(parts[0])).map { PlaygroundResult.prettyJSON(bytes: $0) }
            result.idTokenClaims = (try? Base64URL.decode(parts[1])).map { PlaygroundResult.prettyJSON(bytes: $0) }
        }
        do {
            let keys = try await JWTKeyCollection().add(jwksJSON: String(decoding: provider.keyRing.publishedKeySetJSON, as: UTF8.self))
            let claims = try await keys.verify(idToken, as: IdentityTokenClaims.self)
            let now = Int(provider.clock.now().timeIntervalSince1970)
            var checks = ["signature verified with the key named by kid (RS256)"]
            checks.append(claims.issuer == provider.configuration.issuer ? "iss is \(claims.issuer)" : "iss MISMATCH: \(claims.issuer)")
            checks.append(claims.audience == facts.servicesID.rawValue ? "aud is \(claims.audience)" : "aud MISMATCH: \(claims.audience)")
            checks.append(claims.expiresAt > now ? "not expired (exp in \(claims.expiresAt - now) s)" : "EXPIRED")
            if let nonce { checks.append(claims.nonce == nonce ? "nonce matches" : "nonce MISMATCH") }
            result.verification = .init(lines: checks)
        } catch {
            result.verification = .init(lines: ["signature verification FAILED: \(error)"])
        }
    }
}

/// Pending playground requests by `state` (single use, ten minutes).
final class PendingStates: Sendable {
    private let entries = Mutex<[String: (nonce: String, created: Date)]>([:])

    func remember(state: String, nonce: String, now: Date) {
        entries.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.created) < 600 }
            entries[state] = (nonce, now)
        }
    }

    func take(state: String, now: Date) -> String? {
        entries.withLock { entries in
            guard let entry = entries.removeValue(forKey: state), now.timeIntervalSince(entry.created) < 600 else { return nil }
            return entry.nonce
        }
    }
}
