import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// An App ID's page: its Bundle ID (fixed once registered, as in Apple's portal), its Sign in with
/// Apple configuration, and its description and associated `webcredentials` domains, which can be edited.
struct ConsoleAppIDEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/app-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.page(request) { visit in
                try await site.render(visit, try await page(visit, id: id, kept: nil), message: site.registered(request, id, visit))
            }
        }
        router.post("/console/app-ids/:id") { request, context in
            let id = ClientID(rawValue: try context.parameters.require("id"))
            return try await site.action(request, page: { try await page($0, id: id, kept: $1) }) { visit, form in
                _ = try await site.provider.editAppID(
                    id, teamID: visit.teamID, description: form.description ?? "",
                    webCredentialsDomains: form.webcredentials.map { ListField.entries($0) })
                return try await site.render(visit, try await page(visit, id: id, kept: nil), message: site.text("console_saved", visit.locale))
            }
        }
    }

    private func page(_ visit: ConsoleSite.Visit, id: ClientID, kept: ConsoleForm?) async throws -> ConsolePage {
        guard let app = try await visit.console.client(id), app.kind == .app else {
            throw try await site.error(
                site.text("console_no_such_identifier", visit.locale, values: ["id": id.rawValue]), status: .notFound, visit: visit,
                page: try await ConsoleIdentifierEndpoints(site: site).list(visit, filter: IdentifierFilter()))
        }
        let content = AppIDContent(
            id: app.id.rawValue, description: kept?.description ?? app.description, isPrimary: app.groupID == app.id, group: app.groupID.rawValue,
            webCredentials: kept?.webcredentials ?? app.webCredentialsDomains.joined(separator: "\n"))
        return ConsolePage(template: "console_app_id", section: "identifiers", content: content)
    }
}

struct AppIDContent: Sendable {
    let id: String
    let description: String
    let isPrimary: Bool
    let group: String
    /// The associated `webcredentials` domains, one a line.
    let webCredentials: String
}
