import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for organizations and their Managed Apple IDs (what Apple School Manager and Apple
/// Business Manager do, spec §21). Deleting a Managed Apple ID is `DELETE /admin/users/:appleID`.
struct AdminOrganizationEndpoints {
    let provider: AppleIDProvider

    struct OrganizationOrder: Decodable {
        var name: String
        var kind: Organization.Kind?
        var verifiedDomains: [String]?
        var accessRule: Organization.AccessRule?
        var allowedApps: [String]?

        enum CodingKeys: String, CodingKey {
            case name, kind
            case verifiedDomains = "verified_domains"
            case accessRule = "access_rule"
            case allowedApps = "allowed_apps"
        }
    }

    struct AppOrder: Decodable {
        var appID: String
        enum CodingKeys: String, CodingKey { case appID = "app_id" }
    }

    /// `{"url": null}` hands the password step back to the server.
    struct FederationOrder: Decodable {
        var url: String?
    }

    struct RuleOrder: Decodable {
        var accessRule: Organization.AccessRule
        enum CodingKeys: String, CodingKey { case accessRule = "access_rule" }
    }

    struct MemberOrder: Decodable {
        var username: String
        var password: String
        var firstName: String
        var lastName: String
        var email: String?
        var twoFactorEnabled: Bool?

        enum CodingKeys: String, CodingKey {
            case username, password, email
            case firstName = "first_name"
            case lastName = "last_name"
            case twoFactorEnabled = "two_factor_enabled"
        }
    }

    struct MemberChange: Decodable {
        /// `""` removes the organization e-mail.
        var email: String?
        var deactivated: Bool?
    }

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/orgs") { _, _ in
            try AdminEndpoints.json(["organizations": try await provider.organizations.list().map(OrganizationView.init)])
        }
        admin.post("/orgs") { request, context in
            let order = try await request.decode(as: OrganizationOrder.self, context: context)
            return try await answer {
                OrganizationView(
                    try await provider.organizations.add(
                        name: order.name, kind: order.kind ?? .school, verifiedDomains: order.verifiedDomains ?? [],
                        accessRule: order.accessRule ?? .allApps, allowedApps: (order.allowedApps ?? []).map(ClientID.init(rawValue:))))
            }
        }
        admin.get("/orgs/:org") { _, context in
            let id = try organizationID(context)
            return try await answer {
                var view = OrganizationView(try await provider.organizations.organization(id: id))
                view.members = try await provider.organizations.accounts(of: id).map(MemberView.init)
                return view
            }
        }
        admin.post("/orgs/:org/allowed-apps") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: AppOrder.self, context: context)
            return try await answer { OrganizationView(try await provider.organizations.allow(ClientID(rawValue: order.appID), in: id)) }
        }
        admin.delete("/orgs/:org/allowed-apps/:app") { _, context in
            let id = try organizationID(context)
            let app = ClientID(rawValue: try context.parameters.requireDecoded("app"))
            return try await answer { OrganizationView(try await provider.organizations.disallow(app, in: id)) }
        }
        admin.put("/orgs/:org/access-rule") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: RuleOrder.self, context: context)
            return try await answer { OrganizationView(try await provider.organizations.setAccessRule(order.accessRule, in: id)) }
        }
        admin.put("/orgs/:org/federation") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: FederationOrder.self, context: context)
            return try await answer { OrganizationView(try await provider.organizations.setFederation(url: order.url, in: id)) }
        }
        admin.post("/orgs/:org/users") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: MemberOrder.self, context: context)
            return try await answer {
                MemberView(
                    try await provider.organizations.addAccount(
                        to: id, username: order.username, password: order.password, firstName: order.firstName, lastName: order.lastName,
                        email: order.email.flatMap { $0.isEmpty ? nil : $0 }, twoFactorEnabled: order.twoFactorEnabled ?? true))
            }
        }
        admin.patch("/orgs/:org/users/:appleID") { request, context in
            let change = try await request.decode(as: MemberChange.self, context: context)
            let appleID = try context.parameters.requireDecoded("appleID")
            return try await answer {
                guard var account = try await provider.lookUpAccount(appleID: appleID) else { throw LifecycleError.unknownAccount(appleID) }
                if let email = change.email {
                    account = try await provider.organizations.setEmail(email.isEmpty ? nil : email, accountID: account.id)
                }
                if let deactivated = change.deactivated {
                    account = try await provider.organizations.setDeactivated(deactivated, accountID: account.id)
                }
                return MemberView(account)
            }
        }
    }

    private func organizationID(_ context: AppleIDRequestContext) throws -> UUID {
        let text = try context.parameters.requireDecoded("org")
        guard let id = UUID(uuidString: text) else { throw HTTPError(.notFound, message: "no organization \(text)") }
        return id
    }

    /// The engine's refusals as the admin API's errors: an unknown organization or Apple ID is a 404.
    private func answer(_ body: () async throws -> some Encodable) async throws -> Response {
        do {
            return try AdminEndpoints.json(try await body())
        } catch let error as OrganizationError {
            if case .unknownOrganization = error { throw AdminError.notFound(error.description) }
            throw AdminError.invalidRequest(error.description)
        } catch let error as LifecycleError {
            throw AdminError.notFound(error.description)
        } catch StoreError.conflict {
            throw AdminError.conflict("that username exists")
        }
    }
}

/// An organization as the admin API shows it.
struct OrganizationView: Encodable {
    let id: String
    let kind: String
    let name: String
    let verifiedDomains: [String]
    let accessRule: String
    let allowedApps: [String]
    /// Where the organization's own sign-in checks passwords; absent: the server's own.
    let federationURL: String?
    var members: [MemberView]?

    init(_ organization: Organization) {
        id = organization.claimValue
        kind = organization.kind.rawValue
        name = organization.name
        verifiedDomains = organization.verifiedDomains
        accessRule = organization.accessRule.rawValue
        allowedApps = organization.allowedApps.map(\.rawValue)
        federationURL = organization.federationURL
    }

    enum CodingKeys: String, CodingKey {
        case id, kind, name, members
        case verifiedDomains = "verified_domains"
        case accessRule = "access_rule"
        case allowedApps = "allowed_apps"
        case federationURL = "federation_url"
    }
}

/// A Managed Apple ID as the admin API shows it: never the password hash or the TOTP secret.
struct MemberView: Encodable {
    let username: String
    let firstName: String
    let lastName: String
    let email: String?
    let state: String

    init(_ account: AppleIDAccount) {
        username = account.appleID
        firstName = account.firstName
        lastName = account.lastName
        email = account.managed?.organizationEmail
        state = account.managedState?.rawValue ?? ManagedAccountState.active.rawValue
    }

    enum CodingKeys: String, CodingKey {
        case username, email, state
        case firstName = "first_name"
        case lastName = "last_name"
    }
}
