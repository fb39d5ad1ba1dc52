import AppleIDProtocol
import AppleIDProvider
import Hummingbird

/// `POST /auth/token` and `POST /auth/revoke`: form-encoded, `client_secret_post` only (spec §4, §6).
struct TokenEndpoints {
    let provider: AppleIDProvider

    func register(on router: Router<AppleIDRequestContext>) {
        router.post("/auth/token") { request, _ in
            let tokenRequest: TokenRequest
            do throws(OAuthError) {
                tokenRequest = try await FormDecoding.decodeForm(TokenRequest.self, from: request)
            } catch {
                return refused(error)
            }
            switch await provider.token(tokenRequest) {
            case .success(let response): return OAuthHTTP.json(response)
            case .failure(let error): return OAuthHTTP.error(error)
            }
        }
        router.post("/auth/revoke") { request, _ in
            let revocation: RevocationRequest
            do throws(OAuthError) {
                revocation = try await FormDecoding.decodeForm(RevocationRequest.self, from: request)
            } catch {
                return refused(error)
            }
            switch await provider.revoke(revocation) {
            case .success: return Response(status: .ok, headers: [.cacheControl: "no-store", .pragma: "no-cache"])
            case .failure(let error): return OAuthHTTP.error(error)
            }
        }
    }

    private func refused(_ error: OAuthError) -> Response {
        provider.logRefusal(endpoint: "token", error: error)
        return OAuthHTTP.error(error)
    }
}
