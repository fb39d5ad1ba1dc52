import AppleIDEmailSources
import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// `siwa config export` (`GET /admin/config`): the store as a declaration that, applied to an empty
/// store, makes the same setup with the same identities. Passwords are stored hashed and so are never
/// exported; TOTP secrets only `withSecrets`. Each export has a fresh random `seed`: a start from the
/// file derives left-out passwords from it (in development mode only), so an empty or known seed
/// would let anyone who reads the file compute them (security review 3, finding 3).
extension AppleIDProvider {
    public func exportDeclaration(withSecrets: Bool) async throws -> EnvironmentDeclaration {
        // Sorted by Team ID: the first team is the one whose `sub` an Apple ID pins.
        let teams = try await store.teams().sorted { $0.id.rawValue < $1.id.rawValue }
        let teamName = { (id: TeamID) -> String? in teams.count == 1 ? nil : teams.first { $0.id == id }?.name }
        var declaration = EnvironmentDeclaration(seed: random.hex(bytes: 24))
        var developers: [String: EnvironmentDeclaration.Developer] = [:]
        for team in teams {
            let sources = try await emailSources(teamID: team.id).map(\.value).sorted()
            declaration.teams.append(
                .init(
                    name: team.name, teamID: team.id.rawValue, kind: team.kind, emailSources: sources.isEmpty ? nil : sources,
                    country: team.country))
            for client in try await store.clients(teamID: team.id).sorted(by: { $0.id.rawValue < $1.id.rawValue }) {
                switch client.kind {
                case .app:
                    let isPrimary = client.groupID == client.id
                    let endpoint = isPrimary ? try await store.appGroup(client.id)?.notificationEndpoint : nil
                    declaration.appIDs.append(
                        .init(
                            bundleID: client.id.rawValue, team: teamName(team.id), description: client.description,
                            groupedWith: isPrimary ? nil : client.groupID.rawValue, notificationEndpoint: endpoint,
                            quirks: QuirkChanges(differencesIn: client.quirks)))
                case .service where client.isAssociated:
                    declaration.servicesIDs.append(
                        .init(
                            identifier: client.id.rawValue, team: teamName(team.id), description: client.description,
                            primaryAppID: client.groupID.rawValue, domains: client.domains.isEmpty ? nil : client.domains,
                            returnURLs: client.returnURLs, quirks: QuirkChanges(differencesIn: client.quirks)))
                case .service: continue
                }
            }
            for key in try await store.developerKeys(teamID: team.id).sorted(by: { $0.id.rawValue < $1.id.rawValue }) where key.revokedAt == nil {
                declaration.keys.append(
                    .init(name: key.name, team: teamName(team.id), primaryAppID: key.primaryAppID.rawValue, keyID: key.id.rawValue))
            }
            for developer in try await developerStore.developers(teamID: team.id) {
                let names = developer.teamIDs.compactMap { id in teams.first { $0.id == id }?.name }
                developers[developer.email] = .init(email: developer.email, name: developer.name, teams: teams.count == 1 ? nil : names)
            }
        }
        declaration.developers = developers.values.sorted { $0.email < $1.email }
        let firstTeam = teams.first?.id
        for listing in try await store.accountListings().sorted(by: { $0.account.appleID < $1.account.appleID })
        where listing.account.deletedAt == nil && listing.account.managed == nil {
            let account = listing.account
            declaration.appleIDs.append(
                .init(
                    appleID: account.appleID, firstName: account.firstName, lastName: account.lastName,
                    email: account.email == account.appleID ? nil : account.email, realUserStatus: account.realUserStatus,
                    twoFactor: account.twoFactorEnabled, totpSecret: withSecrets ? account.totpSecret : nil,
                    sub: listing.identities.first { $0.teamID == firstTeam }?.subject.rawValue))
        }
        declaration.organizations = try await exportOrganizations(withSecrets: withSecrets, firstTeam: firstTeam)
        return declaration
    }
}

extension AppleIDProvider {
    /// Organizations by `org_id`, their live Managed Apple IDs by username; a deactivated one is
    /// exported as such.
    private func exportOrganizations(withSecrets: Bool, firstTeam: TeamID?) async throws -> [EnvironmentDeclaration.Organization] {
        var exported: [EnvironmentDeclaration.Organization] = []
        for organization in try await organizations.list().sorted(by: { $0.claimValue < $1.claimValue }) {
            var accounts: [EnvironmentDeclaration.ManagedAccount] = []
            for account in try await organizations.accounts(of: organization.id).sorted(by: { $0.appleID < $1.appleID })
            where account.deletedAt == nil {
                var sub: String?
                if let firstTeam { sub = try await store.teamIdentity(accountID: account.id, teamID: firstTeam)?.subject.rawValue }
                accounts.append(
                    .init(
                        username: account.appleID, firstName: account.firstName, lastName: account.lastName,
                        email: account.managed?.organizationEmail, twoFactor: account.twoFactorEnabled,
                        deactivated: account.managed?.isDeactivated == true ? true : nil, totpSecret: withSecrets ? account.totpSecret : nil,
                        sub: sub))
            }
            exported.append(
                .init(
                    name: organization.name, orgID: organization.claimValue, kind: organization.kind,
                    verifiedDomains: organization.verifiedDomains.isEmpty ? nil : organization.verifiedDomains, accessRule: organization.accessRule,
                    allowedApps: organization.allowedApps.isEmpty ? nil : organization.allowedApps.map(\.rawValue),
                    federationURL: organization.federationURL, accounts: accounts.isEmpty ? nil : accounts))
        }
        return exported
    }
}
