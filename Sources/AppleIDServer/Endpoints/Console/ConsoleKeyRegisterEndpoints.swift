import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Registering a key as Apple's portal does (a Key Name, Sign in with Apple and its Configure, a
/// review, Register), its download page, which works once, and its revocation, which is asked first.
struct ConsoleKeyRegisterEndpoints {
    let site: ConsoleSite
    var keys: ConsoleKeyEndpoints { ConsoleKeyEndpoints(site: site) }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/keys/add") { request, _ in
            try await site.page(request) { visit in try await site.render(visit, try await form(visit, kept: nil)) }
        }
        router.post("/console/keys/add") { request, _ in try await advance(request) }
        router.post("/console/keys") { request, _ in try await advance(request) }
        router.get("/console/keys/:kid/download") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.page(request) { visit in try await site.render(visit, try await downloadPage(visit, kid: kid)) }
        }
        // A POST, so that the one download needs the CSRF token and no prefetch can use it up.
        router.post("/console/keys/:kid/download") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.action(request, page: { visit, _ in try await downloadPage(visit, kid: kid) }) { visit, _ in
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
        router.get("/console/keys/:kid/revoke") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.page(request) { visit in try await site.render(visit, try await revocation(visit, kid: kid)) }
        }
        router.post("/console/keys/:kid/revoke") { request, context in
            let kid = KeyID(rawValue: try context.parameters.require("kid"))
            return try await site.action(request, page: { visit, _ in try await revocation(visit, kid: kid) }) { visit, _ in
                _ = try await site.provider.revokeKey(kid, teamID: visit.teamID)
                return try await site.render(
                    visit, try await keys.list(visit), message: site.text("console_key_revoked", visit.locale, values: ["kid": kid.rawValue]))
            }
        }
    }

    /// Review (`go=review`) or Register (the default): the engine checks both; a refusal shows the
    /// form again with the name and the primary App ID as chosen.
    private func advance(_ request: Request) async throws -> Response {
        try await site.action(request, page: form) { visit, form in
            let primary = ClientID(rawValue: form.primaryAppID ?? "")
            guard form.signInWithApple != nil || form.go == nil else {
                throw ConsoleError.invalid(site.text("console_capability_required", visit.locale))
            }
            let name = try await site.provider.reviewKey(teamID: visit.teamID, primaryAppID: primary, name: form.name ?? "")
            guard form.go != "review" else {
                let content = KeyReviewContent(
                    name: name, primaryAppID: primary.rawValue,
                    hidden: [
                        HiddenField(name: "name", value: name), HiddenField(name: "sign_in_with_apple", value: "on"),
                        HiddenField(name: "primary_app_id", value: primary.rawValue),
                    ])
                return try await site.render(visit, ConsolePage(template: "console_key_review", section: "keys", content: content))
            }
            let key = try await site.provider.createKey(teamID: visit.teamID, primaryAppID: primary, name: name)
            return ConsoleSite.redirect("/console/keys/\(key.id.rawValue)/download")
        }
    }

    private func form(_ visit: ConsoleSite.Visit, kept: ConsoleForm?) async throws -> ConsolePage {
        let groups = try await visit.console.appGroups()
        let content = KeyFormContent(
            name: kept?.name ?? "", primaries: [PrimaryChoice](groups, chosen: kept?.primaryAppID), hasPrimaries: !groups.isEmpty,
            signInWithApple: kept == nil || kept?.signInWithApple != nil)
        return ConsolePage(template: "console_key_register", section: "keys", content: content)
    }

    private func downloadPage(_ visit: ConsoleSite.Visit, kid: KeyID) async throws -> ConsolePage {
        let content = try await keys.page(visit, kid: kid, kept: nil).content
        return ConsolePage(template: "console_key_download", section: "keys", content: content)
    }

    private func revocation(_ visit: ConsoleSite.Visit, kid: KeyID) async throws -> ConsolePage {
        let key = try await keys.ownKey(visit, kid)
        let content = ConfirmContent(
            heading: site.text("console_revoke_heading", visit.locale, values: ["kid": key.id.rawValue]),
            warning: site.text("console_revoke_explained", visit.locale), action: "/console/keys/\(key.id.rawValue)/revoke",
            buttonID: "confirm-revoke", button: site.text("console_revoke", visit.locale), cancel: "/console/keys/\(key.id.rawValue)")
        return ConsolePage(template: "console_confirm", section: "keys", content: content)
    }
}

struct KeyFormContent: Sendable {
    let name: String
    let primaries: [PrimaryChoice]
    let hasPrimaries: Bool
    let signInWithApple: Bool
}

struct KeyReviewContent: Sendable {
    let name: String
    let primaryAppID: String
    let hidden: [HiddenField]
}
