import AppleIDProtocol
import AppleIDProvider
import Hummingbird
import HummingbirdAuth

/// `POST /auth/token`, `POST /auth/revoke` and `POST /auth/usermigrationinfo`: form-encoded,
/// `client_secret_post` only (spec §4, §6, §17.4).
struct TokenEndpoints {
    let provider: AppleIDProvider

    func register(on router: Router<AppleIDRequestContext>) {
        router.post("/auth/token") { request, _ in
            let tokenRequest: TokenRequest
            do throws(OAuthError) {
                tokenRequest = try await FormDecoding.decodeForm(TokenRequest.self, from: request)
            } catch {
                return refused(error, endpoint: "token")
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
                return refused(error, endpoint: "revoke")
            }
            switch await provider.revoke(revocation) {
            case .success: return Response(status: .ok, headers: [.cacheControl: "no-store", .pragma: "no-cache"])
            case .failure(let error): return OAuthHTTP.error(error)
            }
        }
        router.post("/auth/usermigrationinfo") { request, _ in
            let migration: UserMigrationRequest
            do throws(OAuthError) {
                migration = try await FormDecoding.decodeForm(UserMigrationRequest.self, from: request)
            } catch {
                return refused(error, endpoint: "usermigrationinfo")
            }
            switch await provider.transfers.userMigrationInfo(migration, bearerToken: request.headers.bearer?.token) {
            case .success(let answer): return OAuthHTTP.json(answer)
            case .failure(let error): return OAuthHTTP.error(error)
            }
        }
    }

    /// A request refused before the engine saw it, logged under its own endpoint's name.
    private func refused(_ error: OAuthError, endpoint: String) -> Response {
        provider.logRefusal(endpoint: endpoint, error: error)
        return OAuthHTTP.error(error)
    }
}
