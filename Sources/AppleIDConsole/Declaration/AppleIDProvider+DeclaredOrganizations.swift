import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A declaration's organizations and their Managed Apple IDs, through what an organization's
/// administrator does (``Organizations``), so a file holds nothing the admin API would refuse.
extension AppleIDProvider {
    func applyOrganizations(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        for (index, declared) in declaration.organizations.enumerated() {
            let path: [DeclarationPathComponent] = [.key("organizations"), .index(index)]
            let id = try Self.organizationID(declared, at: path)
            // Each value against the engine's rule first, so that an error names its own line.
            for (domainIndex, domain) in (declared.verifiedDomains ?? []).enumerated() {
                _ = try await located(path + [.key("verified_domains"), .index(domainIndex)]) { try Organizations.verifiedDomains([domain]) }
            }
            if let url = declared.federationURL {
                _ = try await located(path + [.key("federation_url")]) { try Organizations.federationURL(url) }
            }
            let settings = Organization(
                id: id, kind: declared.kind ?? .school, name: declared.name, verifiedDomains: declared.verifiedDomains ?? [],
                accessRule: declared.accessRule ?? .allApps, allowedApps: (declared.allowedApps ?? []).map(ClientID.init(rawValue:)),
                createdAt: clock.now(), federationURL: declared.federationURL)
            if try await store.organization(id: id) != nil {
                if try await located(path, { try await organizations.update(id, to: settings) }) {
                    report.updated.append("organization \(declared.name)")
                }
            } else {
                _ = try await located(path) {
                    try await organizations.add(
                        name: settings.name, kind: settings.kind, verifiedDomains: settings.verifiedDomains, accessRule: settings.accessRule,
                        allowedApps: settings.allowedApps, federationURL: settings.federationURL, id: id)
                }
                report.created.append("organization \(declared.name)")
            }
            // Read once, as saved: every account is checked against its verified domains.
            let organization = try await organizations.organization(id: id)
            for (accountIndex, account) in (declared.accounts ?? []).enumerated() {
                try await applyManagedAccount(
                    account, of: organization, at: path + [.key("accounts"), .index(accountIndex)], declaration: declaration, report: &report)
            }
        }
    }

    /// The declared `org_id` (a resolved declaration always has one).
    static func organizationID(_ declared: EnvironmentDeclaration.Organization, at path: [DeclarationPathComponent]) throws -> UUID {
        guard let id = declared.orgID.flatMap(UUID.init(uuidString:)) else {
            throw DeclarationError(path: path + [.key("org_id")], reason: "org_id \(declared.orgID ?? ""): a UUID, as the org_id claim")
        }
        return id
    }

    private func applyManagedAccount(
        _ declared: EnvironmentDeclaration.ManagedAccount, of organization: Organization, at path: [DeclarationPathComponent],
        declaration: EnvironmentDeclaration, report: inout DeclarationReport
    ) async throws {
        let totpSecret = try declared.totpSecret.map { try Self.checkTOTPSecret($0, at: path) }
        let deactivated = declared.deactivated ?? false
        // Each address against the organization's rule first, so that an error names its own line.
        let organizationID = organization.id
        _ = try await located(path + [.key("username")]) { try Organizations.checkAddress(declared.username, of: organization) }
        if let email = declared.email { _ = try await located(path + [.key("email")]) { try Organizations.checkAddress(email, of: organization) } }
        var account: AppleIDAccount
        if let existing = try await store.account(appleID: declared.username), existing.deletedAt == nil {
            guard existing.managed?.organizationID == organizationID else {
                throw DeclarationError(
                    path: path + [.key("username")], reason: "\(declared.username) is already an Apple ID outside this organization")
            }
            account = existing
            let change = await Self.change(
                from: existing, firstName: declared.firstName, lastName: declared.lastName, twoFactor: declared.twoFactor,
                password: declared.password)
            if change != AccountChange() || (totpSecret != nil && existing.totpSecret != totpSecret) {
                account = try await organizations.updateAccount(existing.id, change, totpSecret: totpSecret)
                report.updated.append("Managed Apple ID \(declared.username)")
            }
            if existing.managed?.organizationEmail != declared.email {
                account = try await located(path + [.key("email")]) { try await organizations.setEmail(declared.email, accountID: existing.id) }
                report.updated.append("e-mail of \(declared.username)")
            }
        } else {
            let password = declared.password ?? leftOutPassword(login: declared.username, seed: declaration.seed, report: &report)
            let totpSecret = totpSecret ?? leftOutTOTPSecret(login: declared.username, seed: declaration.seed)
            account = try await located(path) {
                try await organizations.addAccount(
                    to: organizationID, username: declared.username, password: password, firstName: declared.firstName,
                    lastName: declared.lastName, email: declared.email, twoFactorEnabled: declared.twoFactor ?? true, totpSecret: totpSecret)
            }
            report.created.append("Managed Apple ID \(declared.username)")
        }
        if account.managed?.isDeactivated != deactivated {
            account = try await organizations.setDeactivated(deactivated, accountID: account.id)
            report.updated.append("\(declared.username) \(deactivated ? "deactivated" : "reactivated")")
        }
        try await assignSubjects(firstTeam: declared.sub, to: account, in: declaration, report: &report)
    }
}
