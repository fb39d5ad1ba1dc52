import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The console's Identifiers: App IDs with Sign in with Apple and Services IDs (spec §12, §17.1).
/// Every operation takes the acting team; `nil` is the admin API, which may act on any team.
extension AppleIDProvider {
    /// Registers an App ID with Sign in with Apple: a primary App ID (its own group, with a name shown
    /// on the consent page), or one grouped with an existing primary App ID of the team.
    public func createAppID(
        teamID: TeamID, bundleID: String, description: String, groupedWith primary: ClientID? = nil
    ) async throws
        -> RegisteredClient
    {
        let client = try await reviewAppID(teamID: teamID, bundleID: bundleID, description: description, groupedWith: primary)
        if client.groupID == client.id {
            try await store.save(AppGroup(primaryAppID: client.id, teamID: client.teamID, displayName: client.description))
        }
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// The App ID ``createAppID(teamID:bundleID:description:groupedWith:)`` would register, checked by
    /// every rule and saved nowhere: the console's review step shows it before Register.
    public func reviewAppID(
        teamID: TeamID, bundleID: String, description: String, groupedWith primary: ClientID? = nil
    ) async throws
        -> RegisteredClient
    {
        let id = try await newIdentifier(bundleID, what: "bundle ID", teamID: teamID)
        guard let team = try await store.team(teamID) else { throw ConsoleError.notFound("There is no team \(teamID).") }
        let name = try Self.describedAs(description)
        var groupID = id
        if let primary { groupID = try await primaryAppGroup(primary, teamID: team.id).primaryAppID }
        return RegisteredClient(id: id, kind: .app, teamID: team.id, groupID: groupID, description: name)
    }

    /// Registers a Services ID (the web `client_id`) for a primary App ID, with its domains and
    /// Return URLs.
    public func createServicesID(
        teamID: TeamID, identifier: String, description: String, primaryAppID: ClientID, domains: [String] = [], returnURLs: [String] = []
    ) async throws -> RegisteredClient {
        let client = try await reviewServicesID(
            teamID: teamID, identifier: identifier, description: description, primaryAppID: primaryAppID, domains: domains,
            returnURLs: returnURLs)
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// The Services ID ``createServicesID(teamID:identifier:description:primaryAppID:domains:returnURLs:)``
    /// would register, checked by every rule (domains and Return URLs normalized) and saved nowhere.
    public func reviewServicesID(
        teamID: TeamID, identifier: String, description: String, primaryAppID: ClientID, domains: [String] = [], returnURLs: [String] = []
    ) async throws -> RegisteredClient {
        let id = try await newIdentifier(identifier, what: "identifier", teamID: teamID)
        let name = try Self.describedAs(description)
        let group = try await primaryAppGroup(primaryAppID, teamID: teamID)
        var client = RegisteredClient(id: id, kind: .service, teamID: teamID, groupID: group.primaryAppID, description: name)
        try await applyWebsite(to: &client, domains: domains, returnURLs: returnURLs)
        return client
    }

    /// Checks a new identifier and its description before the rest of its registration is known (the
    /// console's first step): Apple's identifier rule, not yet registered, a description given.
    public func checkNewIdentifier(
        _ identifier: String, description: String, kind: RegisteredClient.Kind = .service, teamID: TeamID
    ) async throws {
        _ = try await newIdentifier(identifier, what: kind == .app ? "bundle ID" : "identifier", teamID: teamID)
        _ = try Self.describedAs(description)
    }

    /// Replaces a Services ID's primary App ID, domains and Return URLs (the "Configure" sheet).
    public func configureWebsite(
        servicesID: ClientID, teamID: TeamID?, primaryAppID: ClientID, domains: [String], returnURLs: [String]
    ) async throws -> RegisteredClient {
        var client = try await ownServicesID(servicesID, teamID: teamID)
        client.groupID = try await primaryAppGroup(primaryAppID, teamID: client.teamID).primaryAppID
        try await applyWebsite(to: &client, domains: domains, returnURLs: returnURLs)
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// Adds one Return URL (idempotent: exact matching makes every port its own URL).
    public func addReturnURL(_ url: String, servicesID: ClientID, teamID: TeamID? = nil) async throws -> RegisteredClient {
        var client = try await ownServicesID(servicesID, teamID: teamID)
        guard client.isAssociated else {
            throw ConsoleError.refused("\(client.id) is not associated with a primary App ID. Configure it first.")
        }
        let checked = try ReturnURL.check(url, developmentMode: configuration.developmentMode)
        guard !client.returnURLs.containsExactly(checked.value) else { return client }
        try await applyWebsite(to: &client, domains: client.domains, returnURLs: client.returnURLs + [checked.value])
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// Disassociates a Services ID from its primary App ID: its Return URLs and domains leave the
    /// group, it can no longer sign anyone in, and it does not move with the group in a transfer.
    public func disassociate(servicesID: ClientID, teamID: TeamID?) async throws -> RegisteredClient {
        var client = try await ownServicesID(servicesID, teamID: teamID)
        client.groupID = client.id
        client.returnURLs = []
        client.domains = []
        try await store.save(client)
        registryDidChange()
        return client
    }

    /// The team's App ID groups, Services IDs and keys, for the console's lists.
    public func identifiers(teamID: TeamID) async throws -> (groups: [AppGroup], clients: [RegisteredClient]) {
        (try await store.appGroups(teamID: teamID), try await store.clients(teamID: teamID))
    }

    /// How many Apple IDs have authorized the client and not revoked it.
    public func authorizationCount(clientID: ClientID) async throws -> Int { try await store.authorizationCount(clientID: clientID) }

    /// Checks the domains and Return URLs against Apple's rules and the team's limit, then sets them.
    private func applyWebsite(to client: inout RegisteredClient, domains: [String], returnURLs: [String]) async throws {
        guard let team = try await store.team(client.teamID) else { throw ConsoleError.notFound("There is no team \(client.teamID).") }
        let checkedDomains = try Self.checkedDomainNames(domains)
        var urls: [String] = []
        for url in returnURLs where !url.trimmingCharacters(in: .whitespaces).isEmpty {
            let checked = try ReturnURL.check(url, developmentMode: configuration.developmentMode)
            if !urls.containsExactly(checked.value) { urls.append(checked.value) }
        }
        guard urls.count <= team.kind.returnURLLimit else {
            throw ConsoleError.refused(
                "You can register up to \(team.kind.returnURLLimit) Return URLs as an \(team.kind.rawValue); you entered \(urls.count).")
        }
        if client.isAssociated, team.needsNotificationEndpointForServicesIDs(asOf: configuration.appleAsOf),
            try await store.appGroup(client.groupID)?.notificationEndpoint == nil
        {
            throw ConsoleError.refused(
                "Developers based in the Republic of Korea must provide a server-to-server notification endpoint when registering a new Services ID, or updating an existing Services ID, to associate their website with an app using Sign in with Apple. Register one on the primary App ID \(client.groupID) first."
            )
        }
        client.domains = checkedDomains
        client.returnURLs = urls
    }

    /// Domain names as the portal takes them, one an entry: blanks skipped, each checked
    /// (``DomainName/check(_:)``) and lower-cased, duplicates dropped, in the order given.
    static func checkedDomainNames(_ domains: [String]) throws -> [String] {
        var checked: [String] = []
        for domain in domains where !domain.trimmingCharacters(in: .whitespaces).isEmpty {
            let name = try DomainName.check(domain)
            if !checked.contains(name) { checked.append(name) }
        }
        return checked
    }

    func ownServicesID(_ id: ClientID, teamID: TeamID?) async throws -> RegisteredClient {
        guard let client = try await store.client(id), teamID == nil || client.teamID == teamID else {
            throw ConsoleError.notFound("There is no identifier \(id) in this team.")
        }
        guard client.kind == .service else {
            throw ConsoleError.invalid("\(client.id) is an App ID; Return URLs belong to Services IDs.")
        }
        return client
    }

    func primaryAppGroup(_ id: ClientID, teamID: TeamID) async throws -> AppGroup {
        guard let group = try await store.appGroup(id), group.teamID == teamID else {
            throw ConsoleError.notFound("\(id) is not a primary App ID of this team.")
        }
        return group
    }

    /// A description as stored: trimmed, and required.
    static func describedAs(_ description: String) throws -> String {
        let name = description.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw ConsoleError.invalid("Enter a description.") }
        return name
    }

    /// A new App ID or Services ID identifier: reverse-DNS style, letters, digits, hyphens and periods
    /// (Apple's rule), not yet registered by anyone, and not removed by another team (identifiers are
    /// unique across all teams; a team may register its own removed identifier again, afresh).
    private func newIdentifier(_ text: String, what: String, teamID: TeamID) async throws -> ClientID {
        let value = text.trimmingCharacters(in: .whitespaces)
        let allowed = value.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        guard !value.isEmpty, value.count <= 155, allowed, !value.hasPrefix("."), !value.hasSuffix("."), value.contains(".") else {
            throw ConsoleError.invalid(
                "The \(what) \(value) is not valid. Use a reverse-domain string (com.example.app) of letters, digits, hyphens and periods.")
        }
        let id = ClientID(rawValue: value)
        guard try await store.client(id) == nil, try await store.appGroup(id) == nil else {
            throw ConsoleError.refused("An identifier \(value) is already registered. Choose another.")
        }
        if let removed = try await store.removedIdentifier(id), removed.teamID != teamID {
            throw ConsoleError.refused(
                "The identifier \(value) is not available: it was registered and removed, and identifiers are unique across all teams. Choose another."
            )
        }
        return id
    }
}
