import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What the store holds beyond a declaration: reported at every start, removed only when asked
/// (`--config-prune`), through the console's own removals (keys revoked before their App ID goes,
/// Services IDs before the App ID they belong to; Apple IDs deleted with their notifications;
/// organizations only reported).
extension AppleIDProvider {
    func reportLeftovers(_ declaration: EnvironmentDeclaration, prune: Bool, to report: inout DeclarationReport) async throws {
        let declaredTeams = Set(declaration.teams.compactMap(\.teamID))
        let declaredClients = Set(declaration.appIDs.map(\.bundleID) + declaration.servicesIDs.map(\.identifier))
        let declaredKeys = Set(declaration.keys.compactMap(\.keyID))
        for team in try await store.teams() {
            if !declaredTeams.contains(team.id.rawValue) {
                // A team has no removal in the console; its contents below are still listed.
                report.notInFile.append("team \(team.id) (\(team.name))")
            }
            for key in try await store.developerKeys(teamID: team.id) where key.revokedAt == nil && !declaredKeys.contains(key.id.rawValue) {
                try await leftover("key \(key.id)", prune: prune, report: &report) { _ = try await revokeKey(key.id, teamID: team.id) }
            }
            // Services IDs, then grouped App IDs, then primary App IDs: each removal needs the next one's members gone.
            let clients = try await store.clients(teamID: team.id).filter { !declaredClients.contains($0.id.rawValue) }
            let ordered = clients.sorted { Self.removalOrder($0) < Self.removalOrder($1) }
            for client in ordered {
                let what = client.kind == .app ? "App ID" : "Services ID"
                try await leftover("\(what) \(client.id)", prune: prune, report: &report) { try await removeIdentifier(client.id, teamID: team.id) }
            }
        }
        let declaredAppleIDs = Set(declaration.appleIDs.map { $0.appleID.lowercased() })
        for account in try await store.accounts()
        where account.deletedAt == nil && account.managed == nil && !declaredAppleIDs.contains(account.appleID.lowercased()) {
            try await leftover("Apple ID \(account.appleID)", prune: prune, report: &report) {
                try await lifecycle.deleteAccount(accountID: account.id)
            }
        }
        try await reportOrganizationLeftovers(declaration, prune: prune, to: &report)
    }

    /// Organizations beyond the file are reported (the admin API has no removal for them); Managed
    /// Apple IDs beyond the file, in any organization, are deleted as the organization deletes them.
    private func reportOrganizationLeftovers(_ declaration: EnvironmentDeclaration, prune: Bool, to report: inout DeclarationReport) async throws {
        let declaredOrganizations = Set(declaration.organizations.compactMap { $0.orgID.flatMap(UUID.init(uuidString:)) })
        let declaredAccounts = Set(declaration.organizations.flatMap { ($0.accounts ?? []).map { $0.username.lowercased() } })
        for organization in try await organizations.list() {
            if !declaredOrganizations.contains(organization.id) {
                report.notInFile.append("organization \(organization.claimValue) (\(organization.name))")
            }
            for account in try await organizations.accounts(of: organization.id)
            where account.deletedAt == nil && !declaredAccounts.contains(account.appleID.lowercased()) {
                try await leftover("Managed Apple ID \(account.appleID)", prune: prune, report: &report) {
                    try await organizations.deleteAccount(accountID: account.id)
                }
            }
        }
    }

    private static func removalOrder(_ client: RegisteredClient) -> Int {
        client.kind == .service ? 0 : client.groupID != client.id ? 1 : 2
    }

    private func leftover(_ what: String, prune: Bool, report: inout DeclarationReport, remove: () async throws -> Void) async throws {
        guard prune else {
            report.notInFile.append(what)
            return
        }
        try await remove()
        report.removed.append(what)
    }
}
