import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The console's e-mail sources for the private relay (spec §11): domains, subdomains and individual
/// addresses allowed to send to the team's relay addresses.
extension AppleIDProvider {
    /// Adds comma-delimited sources, as the portal's field takes them (one a line works too). All or none are added: a bad
    /// entry or passing the team's limit (32 for an individual, 100 for an organization) refuses all.
    public func addEmailSources(_ text: String, teamID: TeamID) async throws -> [EmailSource] {
        guard let team = try await registeredTeam(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        let now = clock.now()
        var sources: [EmailSource] = []
        for entry in ListField.entries(text) {
            let value = try Self.emailSource(entry)
            if !sources.contains(where: { $0.value == value }) { sources.append(EmailSource(teamID: team.id, value: value, addedAt: now)) }
        }
        guard !sources.isEmpty else { throw ConsoleError.invalid("Enter one or more domains or e-mail addresses, separated by commas.") }
        guard try await emailSourceStore.add(sources, limit: team.kind.emailSourceLimit) else {
            throw ConsoleError.refused(
                "You can register up to \(team.kind.emailSourceLimit) e-mail sources as an \(team.kind.rawValue). Remove some first.")
        }
        return try await emailSourceStore.emailSources(teamID: team.id)
    }

    public func removeEmailSource(_ value: String, teamID: TeamID) async throws {
        try await emailSourceStore.deleteEmailSource(teamID: teamID, value: value.lowercased())
    }

    public func emailSources(teamID: TeamID) async throws -> [EmailSource] { try await emailSourceStore.emailSources(teamID: teamID) }

    /// A domain name, or an address `local@domain` whose domain is a domain name; lower-cased.
    static func emailSource(_ text: String) throws(ConsoleError) -> String {
        let value = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard let at = value.lastIndex(of: "@") else { return try DomainName.check(value) }
        let local = value[..<at]
        guard !local.isEmpty, local.count <= 64, !local.contains(where: { $0.isWhitespace || $0 == "@" || $0 == "," }) else {
            throw .invalid("\(value) is not a valid e-mail address.")
        }
        return "\(local)@\(try DomainName.check(String(value[value.index(after: at)...])))"
    }
}
