import AppleIDAdminAPI
import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for the emulated device (our extension): each Apple ID's keychain of saved passwords,
/// and the App IDs' associated `webcredentials` domains that decide which app sees which password.
struct AdminKeychainEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/users/:appleID/keychain") { _, context in
            let appleID = try context.parameters.requireDecoded("appleID")
            guard let passwords = try await provider.keychainPasswords(appleID: appleID) else { throw Self.noAppleID(appleID) }
            return try AdminEndpoints.json(SavedPasswordList(passwords: passwords.map(SavedPasswordView.init)))
        }
        admin.post("/users/:appleID/keychain") { request, context in
            let appleID = try context.parameters.requireDecoded("appleID")
            let order = try await request.decode(as: PasswordOrder.self, context: context)
            guard
                let saved = try await provider.saveKeychainPassword(
                    user: order.user, password: order.password, domain: order.domain, appleID: appleID)
            else { throw Self.noAppleID(appleID) }
            var response = try AdminEndpoints.json(SavedPasswordView(saved))
            response.status = .created
            return response
        }
        admin.delete("/users/:appleID/keychain/:domain/:user") { _, context in
            let appleID = try context.parameters.requireDecoded("appleID")
            let domain = try context.parameters.requireDecoded("domain")
            let user = try context.parameters.requireDecoded("user")
            switch try await provider.removeKeychainPassword(user: user, domain: domain, appleID: appleID) {
            case nil: throw Self.noAppleID(appleID)
            case false?: throw AdminError.notFound("no password saved for \(user) at \(domain)")
            case true?: return Response(status: .noContent)
            }
        }
        admin.put("/clients/:client/associated-domains") { request, context in
            let clientID = ClientID(rawValue: try context.parameters.requireDecoded("client"))
            let order = try await request.decode(as: DomainsOrder.self, context: context)
            return try await AdminClientEndpoints.answer {
                _ = try await provider.setWebCredentialsDomains(order.webcredentials, appID: clientID, teamID: nil)
            }
        }
    }

    static func noAppleID(_ appleID: String) -> AdminError { .notFound("no Apple ID \(appleID)") }
}

extension SavedPasswordView {
    init(_ saved: KeychainPassword) {
        self.init(user: saved.user, domain: saved.domain, savedAt: saved.savedAt)
    }
}
