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
            try await site.page(request) { try await list($0) }
        }
        router.post("/console/app-ids") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    let primary = form.primaryAppID.flatMap { $0.isEmpty ? nil : ClientID(rawValue: $0) }
                    let app = try await site.provider.createAppID(
                        teamID: visit.teamID, bundleID: form.bundleID ?? "", description: form.description ?? "", groupedWith: primary)
                    return try await list(visit, message: site.text("console_app_id_registered", visit.locale, values: ["id": app.id.rawValue]))
                }, onError: { visit, error in try await list(visit, error: error) })
        }
        router.post("/console/services-ids") { request, _ in
            try await site.action(
                request,
                { visit, form in
                    let client = try await site.provider.createServicesID(
                        teamID: visit.teamID, identifier: form.identifier ?? "", description: form.description ?? "",
                        primaryAppID: ClientID(rawValue: form.primaryAppID ?? ""), domains: ListField.entries(form.domains),
                        returnURLs: ListField.entries(form.returnURLs))
                    return ConsoleSite.redirect("/console/services-ids/\(client.id.rawValue)?saved=1")
                }, onError: { visit, error in try await list(visit, error: error) })
        }
        router.get("/console/services-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.page(request) { visit in
                let saved = request.uri.queryParameters["saved"] != nil
                return try await edit(visit, id: id, message: saved ? site.text("console_saved", visit.locale) : nil)
            }
        }
        router.post("/console/services-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.action(
                request,
                { visit, form in
                    _ = try await site.provider.configureWebsite(
                        servicesID: id, teamID: visit.teamID, primaryAppID: ClientID(rawValue: form.primaryAppID ?? ""),
                        domains: ListField.entries(form.domains), returnURLs: ListField.entries(form.returnURLs))
                    return try await edit(visit, id: id, message: site.text("console_saved", visit.locale))
                }, onError: { visit, error in try await edit(visit, id: id, error: error) })
        }
        router.post("/console/services-ids/:id/disassociate") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.action(
                request,
                { visit, _ in
                    _ = try await site.provider.disassociate(servicesID: id, teamID: visit.teamID)
                    return try await edit(visit, id: id, message: site.text("console_disassociated", visit.locale))
                }, onError: { visit, error in try await edit(visit, id: id, error: error) })
        }
    }

    private func list(_ visit: ConsoleSite.Visit, message: String? = nil, error: ConsoleError? = nil) async throws -> Response {
        let (groups, clients) = try await visit.console.identifiers()
        let apps = clients.filter { $0.kind == .app }.map { app in
            AppIDRow(id: app.id.rawValue, description: app.description, isPrimary: app.groupID == app.id, group: app.groupID.rawValue)
        }
        let services = clients.filter { $0.kind == .service }.map { client in
            ServicesIDRow(
                id: client.id.rawValue, description: client.description, group: client.isAssociated ? client.groupID.rawValue : nil,
                returnURLCount: client.returnURLs.count)
        }
        let content = IdentifiersContent(
            apps: apps, services: services, primaries: groups.map { PrimaryChoice(id: $0.primaryAppID.rawValue, selected: false) },
            hasPrimaries: !groups.isEmpty, limit: visit.team.kind.returnURLLimit)
        return try site.render(
            visit, template: "console_identifiers", section: "identifiers", content: content, message: message, error: error?.message,
            status: error.map(Self.status) ?? .ok)
    }

    private func edit(_ visit: ConsoleSite.Visit, id: ClientID, message: String? = nil, error: ConsoleError? = nil) async throws -> Response {
        guard let client = try await visit.console.servicesID(id) else {
            return try await list(
                visit, error: ConsoleError(.notFound, site.text("console_no_such_identifier", visit.locale, values: ["id": id.rawValue])))
        }
        let groups = try await visit.console.appGroups()
        let content = ServicesIDContent(
            id: client.id.rawValue, description: client.description, isAssociated: client.isAssociated,
            primaries: groups.map { PrimaryChoice(id: $0.primaryAppID.rawValue, selected: client.isAssociated && $0.primaryAppID == client.groupID) },
            domains: client.domains.joined(separator: "\n"), returnURLs: client.returnURLs.joined(separator: "\n"),
            urls: client.returnURLs.map { ReturnURLRow(url: $0, isDevelopmentOnly: ReturnURL.isDevelopmentOnly($0)) },
            authorizations: try await visit.console.authorizationCount(clientID: client.id), limit: visit.team.kind.returnURLLimit)
        return try site.render(
            visit, template: "console_services_id", section: "identifiers", content: content, message: message, error: error?.message,
            status: error.map(Self.status) ?? .ok)
    }

    static func status(_ error: ConsoleError) -> HTTPResponse.Status { error.kind == .notFound ? .notFound : .badRequest }
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
    let primaries: [PrimaryChoice]
    let hasPrimaries: Bool
    let limit: Int
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
