import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// `siwa serve --config`: a declaration applied through the console's own operations and rules, so a
/// file can hold nothing the console would refuse. Idempotent: what exists as declared is left alone.
extension AppleIDProvider {
    /// Creates what is missing and updates what differs; reports what the store has beyond the file,
    /// and removes it when `prune`. Stops at the first refusal, which names its place in the file.
    public func apply(_ declaration: EnvironmentDeclaration, prune: Bool = false) async throws -> DeclarationReport {
        // Left-out passwords and TOTP secrets are decided per login (``leftOutPassword(login:seed:report:)``).
        let declaration = declaration.resolved(derivingSecrets: false)
        var report = DeclarationReport()
        try await applyTeams(declaration, to: &report)
        try await applyAppIDs(declaration, to: &report)
        try await applyServicesIDs(declaration, to: &report)
        try await applyKeys(declaration, to: &report)
        try await applyAppleIDs(declaration, to: &report)
        try await applyOrganizations(declaration, to: &report)
        try await applyDevelopers(declaration, to: &report)
        try await reportLeftovers(declaration, prune: prune, to: &report)
        if !report.changedNothing { registryDidChange() }
        return report
    }

    private func applyTeams(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        for (index, declared) in declaration.teams.enumerated() {
            let path: [DeclarationPathComponent] = [.key("teams"), .index(index)]
            let id = declared.teamID ?? ""
            guard Self.isAppleStyleIdentifier(id) else {
                throw DeclarationError(path: path + [.key("team_id")], reason: "Team ID \(id): ten upper-case letters and digits, as Apple's")
            }
            let kind = declared.kind ?? .organization
            let country = try await located(path + [.key("country")]) { try DeveloperTeam.checkedCountry(declared.country) }
            if var team = try await store.team(TeamID(rawValue: id)) {
                if team.name != declared.name || team.kind != kind || team.country != country {
                    team.name = declared.name
                    team.kind = kind
                    team.country = country
                    try await store.save(team)
                    report.updated.append("team \(id) (\(declared.name))")
                }
            } else {
                _ = try await located(path) {
                    try await registerTeam(id: TeamID(rawValue: id), name: declared.name, kind: kind, country: country)
                }
                report.created.append("team \(id) (\(declared.name))")
            }
            let existing = Set(try await emailSources(teamID: TeamID(rawValue: id)).map(\.value))
            for (sourceIndex, source) in (declared.emailSources ?? []).enumerated() where !existing.contains(source.lowercased()) {
                _ = try await located(path + [.key("email_sources"), .index(sourceIndex)]) {
                    try await addEmailSources(source, teamID: TeamID(rawValue: id))
                }
                report.created.append("e-mail source \(source) of team \(id)")
            }
        }
    }

    private func applyAppIDs(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        // Primary App IDs first: a grouped one names its primary.
        let ordered = declaration.appIDs.enumerated().sorted { ($0.element.groupedWith == nil ? 0 : 1) < ($1.element.groupedWith == nil ? 0 : 1) }
        for (index, declared) in ordered {
            let path: [DeclarationPathComponent] = [.key("app_ids"), .index(index)]
            let teamID = try declaration.teamID(named: declared.team, at: path)
            let id = ClientID(rawValue: declared.bundleID)
            if let existing = try await store.client(id) {
                if existing.description != declared.description {
                    _ = try await located(path + [.key("description")]) { try await editAppID(id, teamID: teamID, description: declared.description) }
                    report.updated.append("App ID \(id)")
                }
            } else {
                _ = try await located(path) {
                    try await createAppID(
                        teamID: teamID, bundleID: declared.bundleID, description: declared.description,
                        groupedWith: declared.groupedWith.map(ClientID.init(rawValue:)))
                }
                report.created.append("App ID \(id)")
            }
            try await applyQuirks(declared.quirks, clientID: id, at: path, to: &report)
            guard declared.groupedWith == nil, let group = try await store.appGroup(id), group.notificationEndpoint != declared.notificationEndpoint
            else { continue }
            _ = try await located(path + [.key("notification_endpoint")]) {
                try await setNotificationEndpoint(declared.notificationEndpoint, groupID: id, teamID: teamID)
            }
            report.updated.append("notification endpoint of \(id)")
        }
    }

    private func applyServicesIDs(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        for (index, declared) in declaration.servicesIDs.enumerated() {
            let path: [DeclarationPathComponent] = [.key("services_ids"), .index(index)]
            let teamID = try declaration.teamID(named: declared.team, at: path)
            // Each value against the console's rule first, so that an error names its own line.
            for (urlIndex, url) in declared.returnURLs.enumerated() {
                _ = try await located(path + [.key("return_urls"), .index(urlIndex)]) {
                    try ReturnURL.check(url, developmentMode: configuration.developmentMode)
                }
            }
            for (domainIndex, domain) in (declared.domains ?? []).enumerated() {
                _ = try await located(path + [.key("domains"), .index(domainIndex)]) { try DomainName.check(domain) }
            }
            let id = ClientID(rawValue: declared.identifier)
            let primary = ClientID(rawValue: declared.primaryAppID)
            if let existing = try await store.client(id) {
                if existing.groupID != primary || existing.returnURLs != declared.returnURLs || existing.domains != (declared.domains ?? []) {
                    _ = try await located(path) {
                        try await configureWebsite(
                            servicesID: id, teamID: teamID, primaryAppID: primary, domains: declared.domains ?? [], returnURLs: declared.returnURLs)
                    }
                    report.updated.append("Services ID \(id)")
                }
            } else {
                _ = try await located(path) {
                    try await createServicesID(
                        teamID: teamID, identifier: declared.identifier, description: declared.description, primaryAppID: primary,
                        domains: declared.domains ?? [], returnURLs: declared.returnURLs)
                }
                report.created.append("Services ID \(id)")
            }
            try await applyQuirks(declared.quirks, clientID: id, at: path, to: &report)
        }
    }

    /// Sets the client's quirks to the declared ones; left out, back to current traffic.
    private func applyQuirks(
        _ declared: QuirkChanges?, clientID: ClientID, at path: [DeclarationPathComponent], to report: inout DeclarationReport
    ) async throws {
        for (key, change) in declared?.setSwitches ?? [] {
            _ = try await located(path + [.key("quirks"), .key(key)]) { try ClientQuirks().applying(change) }
        }
        if try await located(path + [.key("quirks")], { try await setQuirks(clientID: clientID, declared ?? QuirkChanges()) }) {
            report.updated.append("quirks of \(clientID)")
        }
    }

    private func applyKeys(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        for (index, declared) in declaration.keys.enumerated() {
            let path: [DeclarationPathComponent] = [.key("keys"), .index(index)]
            let teamID = try declaration.teamID(named: declared.team, at: path)
            let id = declared.keyID ?? ""
            guard Self.isAppleStyleIdentifier(id) else {
                throw DeclarationError(path: path + [.key("key_id")], reason: "Key ID \(id): ten upper-case letters and digits, as Apple's")
            }
            if let existing = try await store.developerKey(KeyID(rawValue: id)) {
                guard existing.teamID == teamID else {
                    throw DeclarationError(path: path + [.key("key_id")], reason: "Key ID \(id) belongs to another team")
                }
                if existing.name != declared.name {
                    _ = try await located(path + [.key("name")]) { try await renameKey(existing.id, teamID: teamID, name: declared.name) }
                    report.updated.append("key \(id)")
                }
                continue
            }
            let (key, pem) = try await located(path) {
                try await registerKey(
                    teamID: teamID, primaryAppID: ClientID(rawValue: declared.primaryAppID), name: declared.name, id: KeyID(rawValue: id),
                    privateKeyPEM: declared.privateKeyPEM)
            }
            if declared.privateKeyPEM == nil { report.generatedKeys[key.id] = pem }
            report.created.append("key \(id)")
        }
    }
}
