import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// The native side, emulated (our extension, under the admin token): credential state, and the
/// credential an app receives from `ASAuthorizationAppleIDCredential`.
struct AdminNativeEndpoints {
    let provider: AppleIDProvider

    /// The longest a credential-event long-poll may wait, in seconds.
    static let longestWait: Double = 60

    struct NativeOrder: Decodable {
        var bundleID: String
        var appleID: String
        var scope: String?
        /// The nonce as the app sends it: the SHA-256 (hex) of its raw nonce.
        var nonce: String?
        var existingCredentialsOnly: Bool?
        var hideEmail: Bool?
        /// The user dismisses the sheet: the app gets `ASAuthorizationError.canceled`.
        var cancel: Bool?

        enum CodingKeys: String, CodingKey {
            case bundleID = "bundle_id"
            case appleID = "apple_id"
            case scope, nonce
            case existingCredentialsOnly = "existing_credentials_only"
            case hideEmail = "hide_email"
            case cancel
        }
    }

    /// What `authorizationController(controller:didCompleteWithError:)` receives: an
    /// `ASAuthorizationError` by name and code.
    struct NativeFailure: Encodable {
        var error: String
        var code: Int
        var errorDescription: String
        enum CodingKeys: String, CodingKey {
            case error, code
            case errorDescription = "error_description"
        }

        static func canceled(_ description: String) -> NativeFailure {
            NativeFailure(error: "ASAuthorizationError.canceled", code: 1001, errorDescription: description)
        }

        func response(_ status: HTTPResponse.Status) throws -> Response {
            var response = try AdminEndpoints.json(self)
            response.status = status
            return response
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
            // By Apple ID too: `siwa check` knows whom it signed in, not the team's `sub`.
            if let appleID = request.uri.queryParameters.get("apple_id"), let clientID = request.uri.queryParameters.get("client_id") {
                guard let state = try await provider.credentialState(appleID: appleID, clientID: ClientID(rawValue: clientID)) else {
                    throw AdminError.notFound("no client \(clientID)", code: .invalidClient)
                }
                return try AdminEndpoints.json(["state": state.rawValue])
            }
            guard let user = request.uri.queryParameters.get("user"), let clientID = request.uri.queryParameters.get("client_id") else {
                throw AdminError.invalidRequest("user (or apple_id) and client_id are required")
            }
            guard let state = try await provider.credentialState(subject: Subject(rawValue: user), clientID: ClientID(rawValue: clientID)) else {
                throw AdminError.notFound("no client \(clientID)", code: .invalidClient)
            }
            // An Apple ID is no `sub`: answering notFound would look like a real answer about a real user.
            if state == .notFound, user.contains("@") {
                throw AdminError.invalidRequest(
                    "\(user) is an Apple ID, not a user identifier (sub); `siwa users list` shows each user's sub per team")
            }
            return try AdminEndpoints.json(["state": state.rawValue])
        }
        // The analogue of credentialRevokedNotification: a long-poll over the group's revocations.
        admin.get("/credential-events") { request, _ in
            let query = request.uri.queryParameters
            guard let clientID = query.get("client_id") else { throw AdminError.invalidRequest("client_id is required") }
            let after = query.get("after")
            if let after, OutboxCursor(text: after) == nil { throw AdminError.invalidRequest("after is not a cursor of this feed") }
            let seconds = query.get("wait").map { Double($0) } ?? 0
            guard let seconds, (0...Self.longestWait).contains(seconds) else {
                throw AdminError.invalidRequest("wait is a number of seconds from 0 to \(Int(Self.longestWait))")
            }
            guard
                let page = try await provider.credentialEvents(
                    clientID: ClientID(rawValue: clientID), after: after, wait: .milliseconds(Int64(seconds * 1000)))
            else { throw AdminError.notFound("no client \(clientID)", code: .invalidClient) }
            return try AdminEndpoints.json(page)
        }
        admin.post("/native-credentials") { request, context in
            let order = try await request.decode(as: NativeOrder.self, context: context)
            let scopes = Scope.parse(order.scope) ?? []
            let result: HeadlessAuthorization
            if order.cancel == true {
                return try NativeFailure.canceled("the user canceled the Sign in with Apple sheet").response(.conflict)
            }
            if order.existingCredentialsOnly == true {
                guard
                    let existing = try await provider.authorizeNativeWithExistingCredential(
                        bundleID: ClientID(rawValue: order.bundleID), appleID: order.appleID, nonce: order.nonce)
                else {
                    // ASAuthorizationError.canceled (1001) is what an app sees when no credential is available.
                    return try NativeFailure.canceled("no existing credential for this user and app").response(.notFound)
                }
                result = existing
            } else {
                result = try await provider.authorizeNative(
                    bundleID: ClientID(rawValue: order.bundleID), appleID: order.appleID, scopes: scopes, nonce: order.nonce,
                    overrides: ConsentOverrides(hideEmail: order.hideEmail))
            }
            switch result {
            case .rejected(let error): throw AdminError(error)
            case .unknownAppleID(let appleID):
                throw AdminError.notFound("no Apple ID \(appleID)")
            case .answered(let answer):
                guard let code = answer["code"], let token = answer["id_token"] else {
                    throw AdminError(OAuthError(.serverError, status: 500, reason: "no credential was issued"))
                }
                let claims = try CompactJWS(token).claims(as: IdentityTokenClaims.self)
                let user = try answer["user"].map(AuthorizedUser.init(jsonString:))
                return try AdminEndpoints.json(
                    NativeCredential(
                        user: claims.subject.rawValue, identityToken: token, authorizationCode: code, fullName: user?.name, email: user?.email,
                        realUserStatus: claims.realUserStatus ?? 0, authorizedScopes: scopes.map(\.rawValue)))
            }
        }
    }
}
