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
            let tokenRequest = try await decodeForm(TokenRequest.self, from: request, endpoint: "token")
            return OAuthHTTP.json(try await provider.token(tokenRequest).get())
        }
        router.post("/auth/revoke") { request, _ in
            let revocation = try await decodeForm(RevocationRequest.self, from: request, endpoint: "revoke")
            try await provider.revoke(revocation).get()
            return Response(status: .ok, headers: [.cacheControl: "no-store", .pragma: "no-cache"])
        }
        router.post("/auth/usermigrationinfo") { request, _ in
            let migration = try await decodeForm(UserMigrationRequest.self, from: request, endpoint: "usermigrationinfo")
            return OAuthHTTP.json(try await provider.transfers.userMigrationInfo(migration, bearerToken: request.headers.bearer?.token).get())
        }
    }

    /// The request's form, or its refusal, answered through the engine like every other refusal:
    /// logged, counted and put on the Requests page of the client the form names.
    private func decodeForm<T: Decodable>(_ type: T.Type, from request: Request, endpoint: String) async throws(OAuthError) -> T {
        var body: String?
        do throws(OAuthError) {
            body = try await FormDecoding.formBody(of: request)
            return try FormDecoding.decode(type, from: body ?? "")
        } catch {
            throw await provider.refuseUnreadable(error, endpoint: endpoint, clientID: body.flatMap(FormDecoding.clientID(inUnreadable:)))
        }
    }
}
