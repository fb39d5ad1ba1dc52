import AppleIDAdminAPI
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// The bodies of `POST /admin/native-credentials` in the engine's terms: the app's request and the
/// user's choice, and Apple's shapes of the answer.
extension NativeOrder {
    var scopes: [Scope] { Scope.parse(scope) ?? [] }

    func credentialRequest() throws -> NativeCredentialRequest {
        var providers: Set<NativeCredentialProvider> = []
        for name in self.providers ?? [NativeCredentialProvider.appleID.rawValue] {
            guard let provider = NativeCredentialProvider(rawValue: name) else {
                throw AdminError.invalidRequest("providers are apple-id, password and passkey-account-creation, not \(name)")
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

extension NativeFailure {
    static func canceled(_ description: String, offered: [OfferedCredential]) -> NativeFailure {
        NativeFailure(
            error: "ASAuthorizationError.canceled", code: 1001, errorDescription: description, offered: offered)
    }

    func response(_ status: HTTPResponse.Status) throws -> Response {
        var response = try AdminEndpoints.json(self)
        response.status = status
        return response
    }
}

extension NativeCredential {
    init(_ answer: AuthorizationResponse, scopes: [Scope], offered: [OfferedCredential]) throws {
        // The engine's typed answer, not the token it just signed read back.
        guard let issued = answer.issued, let token = issued.idToken else {
            throw AdminError(OAuthError(.serverError, status: 500, reason: "no credential was issued"))
        }
        self.init(
            user: issued.subject.rawValue, identityToken: token, authorizationCode: issued.code, fullName: issued.user?.name,
            email: issued.user?.email, realUserStatus: issued.realUserStatus.rawValue, authorizedScopes: scopes.map(\.rawValue),
            offered: offered)
    }
}

extension CredentialEventFeed {
    init(_ page: CredentialEventPage) {
        self.init(
            events: page.events.map {
                CredentialEventView(
                    type: $0.type.rawValue, subject: $0.subject, groupID: $0.groupID.rawValue, occurredAt: $0.occurredAt, cursor: $0.cursor)
            }, cursor: page.cursor)
    }
}
