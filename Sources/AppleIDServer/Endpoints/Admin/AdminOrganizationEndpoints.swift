import AppleIDAdminAPI
import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Admin calls for organizations and their Managed Apple IDs (what Apple School Manager and Apple
/// Business Manager do, spec §21). Deleting a Managed Apple ID is `DELETE /admin/users/:appleID`.
struct AdminOrganizationEndpoints {
    let provider: AppleIDProvider

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/orgs") { _, _ in
            try AdminEndpoints.json(OrganizationList(organizations: try await provider.organizations.list().map(OrganizationView.init)))
        }
        admin.post("/orgs") { request, context in
            let order = try await request.decode(as: OrganizationOrder.self, context: context)
            let kind = try order.kind.map(Self.kind) ?? .school
            let accessRule = try order.accessRule.map(Self.accessRule) ?? .allApps
            let organization = try await provider.organizations.add(
                name: order.name, kind: kind, verifiedDomains: order.verifiedDomains ?? [], accessRule: accessRule,
                allowedApps: (order.allowedApps ?? []).map(ClientID.init(rawValue:)))
            return try AdminEndpoints.json(OrganizationView(organization))
        }
        admin.get("/orgs/:org") { _, context in
            let id = try organizationID(context)
            var view = OrganizationView(try await provider.organizations.organization(id: id))
            view.members = try await provider.organizations.accounts(of: id).map(MemberView.init)
            return try AdminEndpoints.json(view)
        }
        admin.post("/orgs/:org/allowed-apps") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: AppOrder.self, context: context)
            return try AdminEndpoints.json(OrganizationView(try await provider.organizations.allow(ClientID(rawValue: order.appID), in: id)))
        }
        admin.delete("/orgs/:org/allowed-apps/:app") { _, context in
            let id = try organizationID(context)
            let app = ClientID(rawValue: try context.parameters.requireDecoded("app"))
            return try AdminEndpoints.json(OrganizationView(try await provider.organizations.disallow(app, in: id)))
        }
        admin.put("/orgs/:org/access-rule") { request, context in
            let id = try organizationID(context)
            let rule = try Self.accessRule(try await request.decode(as: RuleOrder.self, context: context).accessRule)
            return try AdminEndpoints.json(OrganizationView(try await provider.organizations.setAccessRule(rule, in: id)))
        }
        admin.put("/orgs/:org/federation") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: EndpointChange.self, context: context)
            return try AdminEndpoints.json(OrganizationView(try await provider.organizations.setFederation(url: order.url, in: id)))
        }
        admin.post("/orgs/:org/users") { request, context in
            let id = try organizationID(context)
            let order = try await request.decode(as: MemberOrder.self, context: context)
            let account = try await provider.organizations.addAccount(
                to: id, username: order.username, password: order.password, firstName: order.firstName, lastName: order.lastName,
                email: order.email.flatMap { $0.isEmpty ? nil : $0 }, twoFactorEnabled: order.twoFactorEnabled ?? true)
            return try AdminEndpoints.json(MemberView(account))
        }
        admin.patch("/orgs/:org/users/:appleID") { request, context in
            let change = try await request.decode(as: MemberChange.self, context: context)
            let appleID = try context.parameters.requireDecoded("appleID")
            guard var account = try await provider.lookUpAccount(appleID: appleID) else { throw AdminError.notFound("no Apple ID \(appleID)") }
            if let email = change.email {
                account = try await provider.organizations.setEmail(email.isEmpty ? nil : email, accountID: account.id)
            }
            if let deactivated = change.deactivated {
                account = try await provider.organizations.setDeactivated(deactivated, accountID: account.id)
            }
            return try AdminEndpoints.json(MemberView(account))
        }
    }

    /// `school` or `business`, refused as the decoding of an enum was.
    static func kind(_ text: String) throws -> Organization.Kind {
        guard let kind = Organization.Kind(rawValue: text) else { throw AdminError.invalidRequest("kind is school or business, not \(text)") }
        return kind
    }

    static func accessRule(_ text: String) throws -> Organization.AccessRule {
        guard let rule = Organization.AccessRule(rawValue: text) else {
            throw AdminError.invalidRequest("access_rule is all-apps or specific-apps, not \(text)")
        }
        return rule
    }

    private func organizationID(_ context: AppleIDRequestContext) throws -> UUID {
        let text = try context.parameters.requireDecoded("org")
        guard let id = UUID(uuidString: text) else { throw AdminError.notFound("no organization \(text)") }
        return id
    }
}

extension OrganizationView {
    init(_ organization: Organization) {
        self.init(
            id: organization.claimValue, kind: organization.kind.rawValue, name: organization.name, verifiedDomains: organization.verifiedDomains,
            accessRule: organization.accessRule.rawValue, allowedApps: organization.allowedApps.map(\.rawValue),
            federationURL: organization.federationURL)
    }
}

extension MemberView {
    init(_ account: AppleIDAccount) {
        self.init(
            username: account.appleID, firstName: account.firstName, lastName: account.lastName, email: account.managed?.organizationEmail,
            state: account.managedState?.rawValue ?? ManagedAccountState.active.rawValue)
    }
}
