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
            try await site.page(request) { visit in try await site.show(visit, list) }
        }
        router.post("/console/app-ids") { request, _ in
            try await site.action(request, page: list) { visit, form in
                let primary = form.primaryAppID.flatMap { $0.isEmpty ? nil : ClientID(rawValue: $0) }
                let app = try await site.provider.createAppID(
                    teamID: visit.teamID, bundleID: form.bundleID ?? "", description: form.description ?? "", groupedWith: primary)
                let message = site.text("console_app_id_registered", visit.locale, values: ["id": app.id.rawValue])
                return try await site.show(visit, list, message: message)
            }
        }
        router.post("/console/services-ids") { request, _ in
            try await site.action(request, page: list) { visit, form in
                let client = try await site.provider.createServicesID(
                    teamID: visit.teamID, identifier: form.identifier ?? "", description: form.description ?? "",
                    primaryAppID: ClientID(rawValue: form.primaryAppID ?? ""), domains: ListField.entries(form.domains),
                    returnURLs: ListField.entries(form.returnURLs))
                return ConsoleSite.redirect("/console/services-ids/\(client.id.rawValue)?saved=1")
            }
        }
        router.get("/console/services-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.page(request) { visit in
                let saved = request.uri.queryParameters["saved"] != nil
                return try await site.render(
                    visit, try await edit(visit, id: id, kept: nil), message: saved ? site.text("console_saved", visit.locale) : nil)
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

    /// The Identifiers list with its two registration forms; the one that was refused shows what was typed.
    func list(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        let (groups, clients) = try await visit.console.identifiers()
        let apps = clients.filter { $0.kind == .app }.map { app in
            AppIDRow(id: app.id.rawValue, description: app.description, isPrimary: app.groupID == app.id, group: app.groupID.rawValue)
        }
        let services = clients.filter { $0.kind == .service }.map { client in
            ServicesIDRow(
                id: client.id.rawValue, description: client.description, group: client.isAssociated ? client.groupID.rawValue : nil,
                returnURLCount: client.returnURLs.count)
        }
        // The App ID form sends a bundle ID, the Services ID form an identifier: each gets back its own input.
        let newAppID = kept?.bundleID != nil ? kept : nil
        let newServicesID = kept?.identifier != nil ? kept : nil
        let content = IdentifiersContent(
            apps: apps, services: services, appPrimaries: [PrimaryChoice](groups, chosen: newAppID?.primaryAppID),
            servicesPrimaries: [PrimaryChoice](groups, chosen: newServicesID?.primaryAppID), hasPrimaries: !groups.isEmpty,
            limit: visit.team.kind.returnURLLimit, newAppID: newAppID, newServicesID: newServicesID)
        return ConsolePage(template: "console_identifiers", section: "identifiers", content: content)
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

struct AppIDRow: Sendable {
    let id: String
    let description: String
    let isPrimary: Bool
    let group: String
}

struct ServicesIDRow: Sendable {
    let id: String
    let description: String
    let group: String?
    let returnURLCount: Int
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
    let apps: [AppIDRow]
    let services: [ServicesIDRow]
    let appPrimaries: [PrimaryChoice]
    let servicesPrimaries: [PrimaryChoice]
    let hasPrimaries: Bool
    let limit: Int
    /// The refused App ID form, as typed.
    let newAppID: ConsoleForm?
    /// The refused Services ID form, as typed.
    let newServicesID: ConsoleForm?
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
