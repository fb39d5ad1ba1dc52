import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// The bodies of `POST /admin/native-credentials`: the app's request and the user's choice, and
/// Apple's shapes of the answer.
extension AdminNativeEndpoints {
    struct NativeOrder: Decodable {
        var bundleID: String
        var appleID: String
        var scope: String?
        /// The nonce as the app sends it: the SHA-256 (hex) of its raw nonce.
        var nonce: String?
        /// `apple-id`, `password` or both (default: `apple-id`).
        var providers: [String]?
        var existingOnly: Bool?
        /// The earlier spelling of `existing_only`, kept for scripts.
        var existingCredentialsOnly: Bool?
        /// `apple-id`, `password` or `password:USER`.
        var pick: String?
        var hideEmail: Bool?
        /// The user dismisses the sheet: the app gets `ASAuthorizationError.canceled`.
        var cancel: Bool?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case appleID = "apple_id"
            case scope, nonce, providers, pick, cancel
            case existingOnly = "existing_only"
            case existingCredentialsOnly = "existing_credentials_only"
            case hideEmail = "hide_email"
        }

        var scopes: [Scope] { Scope.parse(scope) ?? [] }

        func credentialRequest() throws -> NativeCredentialRequest {
            var providers: Set<NativeCredentialProvider> = []
            for name in self.providers ?? [NativeCredentialProvider.appleID.rawValue] {
                guard let provider = NativeCredentialProvider(rawValue: name) else {
                    throw AdminError.invalidRequest("providers are apple-id and password, not \(name)")
                }
                providers.insert(provider)
            }
            guard !providers.isEmpty else { throw AdminError.invalidRequest("name at least one provider: apple-id or password") }
            let pick = try self.pick.map { text in
                guard let pick = CredentialPick(text) else { throw AdminError.invalidRequest("pick is apple-id, password or password:USER") }
                return pick
            }
            return NativeCredentialRequest(
                bundleID: ClientID(rawValue: bundleID), appleID: appleID, providers: providers,
                existingOnly: existingOnly ?? existingCredentialsOnly ?? false, pick: pick, scopes: scopes, nonce: nonce,
                overrides: ConsentOverrides(hideEmail: hideEmail), userCancels: cancel ?? false)
        }
    }

    /// What `authorizationController(controller:didCompleteWithError:)` receives: an
    /// `ASAuthorizationError` by name and code, and what the sheet offered.
    struct NativeFailure: Encodable {
        var error: String
        var code: Int
        var errorDescription: String
        var offered: [OfferedCredential]
        enum CodingKeys: String, CodingKey {
            case error, code, offered
            case errorDescription = "error_description"
        }

        static func canceled(_ description: String, offered: [OfferedCredential]) -> NativeFailure {
            NativeFailure(error: "ASAuthorizationError.canceled", code: 1001, errorDescription: description, offered: offered)
        }

        func response(_ status: HTTPResponse.Status) throws -> Response {
            var response = try AdminEndpoints.json(self)
            response.status = status
            return response
        }
    }

    /// The fields of `ASAuthorizationAppleIDCredential`.
    struct NativeCredential: Encodable {
        var type = NativeCredentialProvider.appleID
        var user: String
        var identityToken: String
        var authorizationCode: String
        var fullName: AuthorizedUser.Name?
        var email: String?
        var realUserStatus: Int
        var authorizedScopes: [String]
        var offered: [OfferedCredential]

        init(_ answer: AuthorizationResponse, scopes: [Scope], offered: [OfferedCredential]) throws {
            guard let code = answer["code"], let token = answer["id_token"] else {
                throw AdminError(OAuthError(.serverError, status: 500, reason: "no credential was issued"))
            }
            let claims = try CompactJWS(token).claims(as: IdentityTokenClaims.self)
            let user = try answer["user"].map(AuthorizedUser.init(jsonString:))
            self.user = claims.subject.rawValue
            identityToken = token
            authorizationCode = code
            fullName = user?.name
            email = user?.email
            realUserStatus = claims.realUserStatus ?? 0
            authorizedScopes = scopes.map(\.rawValue)
            self.offered = offered
        }
    }

    /// The fields of `ASPasswordCredential`: a password from the device's keychain.
    struct PasswordCredential: Encodable {
        var type = NativeCredentialProvider.password
        var user: String
        var password: String
        var offered: [OfferedCredential]
    }
}
