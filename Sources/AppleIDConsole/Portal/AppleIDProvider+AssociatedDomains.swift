import AppleIDProtocol
import AppleIDProvider
import Foundation

/// An App ID's associated domains for `webcredentials` (the app's entitlement, which Apple's portal
/// and the app's `apple-app-site-association` file confirm): the websites whose keychain passwords
/// the device offers the app.
extension AppleIDProvider {
    /// Replaces an App ID's `webcredentials` domains. `teamID` nil is the admin API, which may act on
    /// any team.
    public func setWebCredentialsDomains(_ domains: [String], appID: ClientID, teamID: TeamID?) async throws -> RegisteredClient {
        guard var client = try await store.client(appID), client.kind == .app, teamID == nil || client.teamID == teamID else {
            throw ConsoleError.notFound("There is no App ID \(appID) in this team.")
        }
        client.webCredentialsDomains = try Self.checkedWebCredentialsDomains(domains)
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// Domain names as the entitlement lists them, with or without the `webcredentials:` service
    /// prefix; any other service (`applinks:`) is refused by the domain rules.
    static func checkedWebCredentialsDomains(_ domains: [String]) throws -> [String] {
        let service = "webcredentials:"
        return try checkedDomainNames(
            domains.map { entry in
                let trimmed = entry.trimmingCharacters(in: .whitespaces)
                return trimmed.lowercased().hasPrefix(service) ? String(trimmed.dropFirst(service.count)) : trimmed
            })
    }
}
