import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Keys: the list, and a key's page where it is renamed. Registering one, its one download and its
/// revocation are in ``ConsoleKeyRegisterEndpoints``.
struct ConsoleKeyEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/keys") { request, _ in
            let query = String((request.uri.queryParameters["q"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces).prefix(100))
            return try await site.page(request) { visit in try await site.render(visit, try await list(visit, query: query)) }
        }
        router.get("/console/keys/:kid") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.page(request) { visit in try await site.render(visit, try await page(visit, kid: kid, kept: nil)) }
        }
        router.post("/console/keys/:kid") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.action(request, page: { try await page($0, kid: kid, kept: $1) }) { visit, form in
                _ = try await site.provider.renameKey(kid, teamID: visit.teamID, name: form.name ?? "")
                return try await site.render(visit, try await page(visit, kid: kid, kept: nil), message: site.text("console_saved", visit.locale))
            }
        }
    }

    /// The team's keys, searched by name or Key ID.
    func list(_ visit: ConsoleSite.Visit, query: String = "") async throws -> ConsolePage {
        let keys = try await visit.console.developerKeys().filter {
            query.isEmpty || $0.name.localizedCaseInsensitiveContains(query) || $0.id.rawValue.localizedCaseInsensitiveContains(query)
        }
        let rows = keys.map {
            KeyRow(id: $0.id.rawValue, name: $0.name, primaryAppID: $0.primaryAppID.rawValue, revokedAt: $0.revokedAt.map(ConsoleSite.day))
        }
        let content = KeysContent(keys: rows, hasKeys: !rows.isEmpty, query: query)
        return ConsolePage(template: "console_keys", section: "keys", content: content)
    }

    /// A key's page: its name (editable), Key ID, primary App ID, and what can still be done with it.
    func page(_ visit: ConsoleSite.Visit, kid: KeyID, kept: ConsoleForm?) async throws -> ConsolePage {
        let key = try await ownKey(visit, kid)
        let content = KeyContent(
            id: key.id.rawValue, name: kept?.name ?? key.name, primaryAppID: key.primaryAppID.rawValue, revokedAt: key.revokedAt.map(ConsoleSite.day),
            canDownload: key.revokedAt == nil ? try await visit.console.canDownloadKey(key.id) : false)
        return ConsolePage(template: "console_key", section: "keys", content: content)
    }

    /// The team's key `kid`, or the Keys list with the reason.
    func ownKey(_ visit: ConsoleSite.Visit, _ kid: KeyID) async throws -> DeveloperKey {
        guard let key = try await visit.console.developerKey(kid) else {
            throw try await site.error(
                site.text("console_no_such_key", visit.locale, values: ["kid": kid.rawValue]), status: .notFound, visit: visit,
                page: try await list(visit))
        }
        return key
    }
}

struct KeyRow: Sendable {
    let id: String
    let name: String
    let primaryAppID: String
    let revokedAt: String?
}

struct KeysContent: Sendable {
    let keys: [KeyRow]
    let hasKeys: Bool
    let query: String
}

struct KeyContent: Sendable {
    let id: String
    let name: String
    let primaryAppID: String
    let revokedAt: String?
    let canDownload: Bool
}
