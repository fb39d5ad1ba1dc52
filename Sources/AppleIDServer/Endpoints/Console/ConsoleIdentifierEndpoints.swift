import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Identifiers: App IDs with Sign in with Apple (primary or grouped) and Services IDs with their
/// domains and Return URLs (spec §12, §17.1). The rules are the engine's; this translates forms.
struct ConsoleIdentifierEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/identifiers") { request, _ in
            let filter = IdentifierFilter(request)
            return try await site.page(request) { visit in
                // Named only when it is indeed gone: a link cannot make the page claim a removal.
                var removed: String?
                if let id = filter.removed, try await visit.console.client(ClientID(rawValue: id)) == nil {
                    removed = site.text("console_removed", visit.locale, values: ["id": id])
                }
                return try await site.render(visit, try await list(visit, filter: filter), message: removed)
            }
        }
        router.get("/console/services-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.page(request) { visit in
                return try await site.render(visit, try await edit(visit, id: id, kept: nil), message: site.registered(request, id, visit))
            }
        }
        router.post("/console/services-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.action(request, page: { try await edit($0, id: id, kept: $1) }) { visit, form in
                _ = try await site.provider.configureWebsite(
                    servicesID: id, teamID: visit.teamID, primaryAppID: ClientID(rawValue: form.primaryAppID ?? ""),
                    domains: ListField.entries(form.domains), returnURLs: ListField.entries(form.returnURLs))
                return try await site.render(visit, try await edit(visit, id: id, kept: nil), message: site.text("console_saved", visit.locale))
            }
        }
        router.post("/console/services-ids/:id/disassociate") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.action(request, page: { try await edit($0, id: id, kept: $1) }) { visit, _ in
                _ = try await site.provider.disassociate(servicesID: id, teamID: visit.teamID)
                return try await site.render(
                    visit, try await edit(visit, id: id, kept: nil), message: site.text("console_disassociated", visit.locale))
            }
        }
    }

    /// The Identifiers list of one type, searched by name or identifier, as Apple's portal lists them.
    func list(_ visit: ConsoleSite.Visit, filter: IdentifierFilter) async throws -> ConsolePage {
        let rows = try await visit.console.clients().filter { $0.kind == filter.kind && filter.matches($0) }.map { client in
            IdentifierRow(
                id: client.id.rawValue, description: client.description, isApp: client.kind == .app, isPrimary: client.groupID == client.id,
                group: client.isAssociated ? client.groupID.rawValue : nil, returnURLCount: client.returnURLs.count,
                link: (client.kind == .app ? "/console/app-ids/" : "/console/services-ids/") + client.id.rawValue)
        }
        let content = IdentifiersContent(rows: rows, hasRows: !rows.isEmpty, isApps: filter.kind == .app, query: filter.query)
        return ConsolePage(template: "console_identifiers", section: "identifiers", content: content)
    }

    /// The list as a refused action shows it: every App ID.
    func list(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        try await list(visit, filter: IdentifierFilter())
    }

    /// A Services ID's Configure page: the saved configuration, or the one just refused as it was typed.
    private func edit(_ visit: ConsoleSite.Visit, id: ClientID, kept: ConsoleForm?) async throws -> ConsolePage {
        guard let client = try await visit.console.servicesID(id) else {
            throw try await site.error(
                site.text("console_no_such_identifier", visit.locale, values: ["id": id.rawValue]), status: .notFound, visit: visit,
                page: try await list(visit, kept: nil))
        }
        let groups = try await visit.console.appGroups()
        let chosen = kept?.primaryAppID ?? (client.isAssociated ? client.groupID.rawValue : nil)
        let content = ServicesIDContent(
            id: client.id.rawValue, description: client.description, isAssociated: client.isAssociated,
            primaries: [PrimaryChoice](groups, chosen: chosen),
            domains: kept?.domains ?? client.domains.joined(separator: "\n"),
            returnURLs: kept?.returnURLs ?? client.returnURLs.joined(separator: "\n"),
            urls: client.returnURLs.map { ReturnURLRow(url: $0, isDevelopmentOnly: ReturnURL.isDevelopmentOnly($0)) },
            authorizations: try await visit.console.authorizationCount(clientID: client.id), limit: visit.team.kind.returnURLLimit)
        return ConsolePage(template: "console_services_id", section: "identifiers", content: content)
    }
}

struct IdentifierRow: Sendable {
    let id: String
    let description: String
    let isApp: Bool
    let isPrimary: Bool
    let group: String?
    let returnURLCount: Int
    let link: String
}

struct PrimaryChoice: Sendable {
    let id: String
    let selected: Bool
}

struct ReturnURLRow: Sendable {
    let url: String
    let isDevelopmentOnly: Bool
}

struct IdentifiersContent: Sendable {
    let rows: [IdentifierRow]
    let hasRows: Bool
    let isApps: Bool
    let query: String
}

struct ServicesIDContent: Sendable {
    let id: String
    let description: String
    let isAssociated: Bool
    let primaries: [PrimaryChoice]
    let domains: String
    let returnURLs: String
    let urls: [ReturnURLRow]
    let authorizations: Int
    let limit: Int
}
