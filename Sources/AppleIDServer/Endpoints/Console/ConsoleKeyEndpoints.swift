import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Keys: create a Sign in with Apple key for a primary App ID, download its `.p8` exactly once,
/// revoke it.
struct ConsoleKeyEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/keys") { request, _ in
            try await site.page(request) { visit in try await site.show(visit, list) }
        }
        router.post("/console/keys") { request, _ in
            try await site.action(request, page: list) { visit, form in
                let key = try await site.provider.createKey(teamID: visit.teamID, primaryAppID: ClientID(rawValue: form.primaryAppID ?? ""))
                return try await site.show(visit, list, message: site.text("console_key_created", visit.locale, values: ["kid": key.id.rawValue]))
            }
        }
        // A POST, so that the one download needs the CSRF token and no prefetch can use it up.
        router.post("/console/keys/:kid/download") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.action(request, page: list) { visit, _ in
                let pem = try await site.provider.downloadKey(kid, teamID: visit.teamID)
                return Response(
                    status: .ok,
                    headers: [
                        .contentType: "application/octet-stream", .cacheControl: "no-store",
                        .contentDisposition: "attachment; filename=\"AuthKey_\(kid.rawValue).p8\"",
                    ],
                    body: .init(byteBuffer: ByteBuffer(string: pem)))
            }
        }
        router.post("/console/keys/:kid/revoke") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.action(request, page: list) { visit, _ in
                _ = try await site.provider.revokeKey(kid, teamID: visit.teamID)
                return try await site.show(visit, list, message: site.text("console_key_revoked", visit.locale, values: ["kid": kid.rawValue]))
            }
        }
    }

    private func list(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        var keys: [KeyRow] = []
        for key in try await visit.console.developerKeys() {
            keys.append(
                KeyRow(
                    id: key.id.rawValue, primaryAppID: key.primaryAppID.rawValue, revokedAt: key.revokedAt?.ISO8601Format(),
                    canDownload: key.revokedAt == nil ? try await visit.console.canDownloadKey(key.id) : false))
        }
        let groups = try await visit.console.appGroups()
        let content = KeysContent(
            keys: keys, hasKeys: !keys.isEmpty, primaries: [PrimaryChoice](groups, chosen: kept?.primaryAppID), hasPrimaries: !groups.isEmpty)
        return ConsolePage(template: "console_keys", section: "keys", content: content)
    }
}

struct KeyRow: Sendable {
    let id: String
    let primaryAppID: String
    let revokedAt: String?
    let canDownload: Bool
}

struct KeysContent: Sendable {
    let keys: [KeyRow]
    let hasKeys: Bool
    let primaries: [PrimaryChoice]
    let hasPrimaries: Bool
}
