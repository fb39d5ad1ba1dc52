import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Removing an App ID or a Services ID: a confirmation page first (it cannot be undone), then the
/// engine's removal, which refuses an App ID others depend on and says why.
struct ConsoleRemovalEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        for (path, kind) in [("/console/app-ids", RegisteredClient.Kind.app), ("/console/services-ids", .service)] {
            router.get("\(path)/:id/remove") { request, context in
                let id = ClientID(rawValue: try context.parameters.require("id"))
                return try await site.page(request) { visit in try await site.render(visit, try await confirmation(visit, id: id, kind: kind)) }
            }
            router.post("\(path)/:id/remove") { request, context in
                let id = ClientID(rawValue: try context.parameters.require("id"))
                return try await site.action(request, page: { visit, _ in try await confirmation(visit, id: id, kind: kind) }) { visit, _ in
                    try await site.provider.removeIdentifier(id, teamID: visit.teamID)
                    let type = kind == .app ? "app" : "services"
                    return ConsoleSite.redirect(
                        "/console/identifiers?type=\(type)&removed=\(id.rawValue.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")")
                }
            }
        }
    }

    private func confirmation(_ visit: ConsoleSite.Visit, id: ClientID, kind: RegisteredClient.Kind) async throws -> ConsolePage {
        guard let client = try await visit.console.client(id), client.kind == kind else {
            throw try await site.error(
                site.text("console_no_such_identifier", visit.locale, values: ["id": id.rawValue]), status: .notFound, visit: visit,
                page: try await ConsoleIdentifierEndpoints(site: site).list(visit, filter: IdentifierFilter()))
        }
        let base = kind == .app ? "/console/app-ids/" : "/console/services-ids/"
        let content = ConfirmContent(
            heading: site.text("console_remove_heading", visit.locale, values: ["id": id.rawValue]),
            warning: site.text("console_remove_explained", visit.locale), action: base + id.rawValue + "/remove", buttonID: "confirm-remove",
            button: site.text("console_remove", visit.locale), cancel: base + id.rawValue)
        return ConsolePage(template: "console_confirm", section: "identifiers", content: content)
    }
}

/// A page that asks before an action that cannot be undone.
struct ConfirmContent: Sendable {
    let heading: String
    let warning: String
    let action: String
    let buttonID: String
    let button: String
    let cancel: String
}
