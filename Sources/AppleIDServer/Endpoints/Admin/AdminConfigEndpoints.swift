import AppleIDConsole
import AppleIDProvider
import Foundation
import Hummingbird

/// `GET /admin/config`: the server's setup as a declaration (the model of `siwa serve --config`), for
/// `siwa config export`. TOTP secrets only with `?secrets=true`; passwords never (they are stored hashed).
struct AdminConfigEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/config") { request, _ in
            let withSecrets = request.uri.queryParameters.get("secrets") == "true"
            return try AdminEndpoints.json(try await provider.exportDeclaration(withSecrets: withSecrets))
        }
    }
}
