import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// The native side, emulated (our extension, under the admin token): credential state, and the
/// credential an app receives from `ASAuthorizationAppleIDCredential`.
struct AdminNativeEndpoints {
    let provider: AppleIDProvider

    struct NativeOrder: Decodable {
        var bundleID: String
        var appleID: String
        var scope: String?
        /// The nonce as the app sends it: the SHA-256 (hex) of its raw nonce.
        var nonce: String?
        var existingCredentialsOnly: Bool?
        var hideEmail: Bool?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case appleID = "apple_id"
            case scope, nonce
            case existingCredentialsOnly = "existing_credentials_only"
            case hideEmail = "hide_email"
        }
    }

    /// The fields of `ASAuthorizationAppleIDCredential`.
    struct NativeCredential: Encodable {
        var user: String
        var identityToken: String
        var authorizationCode: String
        var fullName: AuthorizedUser.Name?
        var email: String?
        var realUserStatus: Int
        var authorizedScopes: [String]
    }

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/credential-state") { request, _ in
            guard let user = request.uri.queryParameters.get("user"), let clientID = request.uri.queryParameters.get("client_id") else {
                return AdminEndpoints.explained(.invalidRequest("user and client_id are required"))
            }
            guard let state = try await provider.credentialState(subject: Subject(rawValue: user), clientID: ClientID(rawValue: clientID)) else {
                return AdminEndpoints.explained(OAuthError(.invalidClient, status: 404, reason: "no client \(clientID)"))
            }
            return try AdminEndpoints.json(["state": state.rawValue])
        }
        admin.post("/native-credentials") { request, context in
            let order = try await request.decode(as: NativeOrder.self, context: context)
            let scopes = Scope.parse(order.scope) ?? []
            let result: HeadlessAuthorization
            if order.existingCredentialsOnly == true {
                guard
                    let existing = try await provider.authorizeNativeWithExistingCredential(
                        bundleID: ClientID(rawValue: order.bundleID), appleID: order.appleID, nonce: order.nonce)
                else {
                    // ASAuthorizationError.canceled (1001) is what an app sees when no credential is available.
                    return AdminEndpoints.explained(
                        OAuthError(.invalidRequest, status: 404, reason: "no existing credential for this user and app (ASAuthorizationError 1001)"))
                }
                result = existing
            } else {
                let account = try await provider.store.account(appleID: order.appleID)
                let choices = account.map {
                    ConsentChoices(firstName: $0.firstName, lastName: $0.lastName, hideEmail: order.hideEmail ?? false)
                }
                result = try await provider.authorizeNative(
                    bundleID: ClientID(rawValue: order.bundleID), appleID: order.appleID, scopes: scopes, nonce: order.nonce, choices: choices)
            }
            switch result {
            case .rejected(let error): return AdminEndpoints.explained(error)
            case .unknownAppleID(let appleID):
                return AdminEndpoints.explained(OAuthError(.invalidRequest, status: 404, reason: "no Apple ID \(appleID)"))
            case .answered(let answer):
                guard let code = answer["code"], let token = answer["id_token"] else {
                    return AdminEndpoints.explained(OAuthError(.serverError, status: 500, reason: "no credential was issued"))
                }
                let claims = try JSONDecoder().decode(
                    IdentityTokenClaims.self, from: Data(try Base64URL.decode(String(token.split(separator: ".")[1]))))
                let user = try answer["user"].map(AuthorizedUser.init(jsonString:))
                return try AdminEndpoints.json(
                    NativeCredential(
                        user: claims.subject.rawValue, identityToken: token, authorizationCode: code, fullName: user?.name, email: user?.email,
                        realUserStatus: claims.realUserStatus ?? 0, authorizedScopes: scopes.map(\.rawValue)))
            }
        }
    }
}
