import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// Registering an identifier as Apple's portal does: choose a type, then a description and an
/// identifier, then Sign in with Apple and its Configure, then a review, then Register. Every step
/// re-checks the steps before it with the engine, so a refusal shows the step whose input is wrong,
/// as typed; nothing is stored before Register.
struct ConsoleRegisterEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/identifiers/add") { request, _ in
            try await site.page(request) { visit in try await site.render(visit, try await page(.type, draft: nil, visit: visit)) }
        }
        router.post("/console/identifiers/add") { request, _ in try await advance(request, kind: nil) }
        // One POST with every field registers at once (the flow's last step, and scripts).
        router.post("/console/app-ids") { request, _ in try await advance(request, kind: .app) }
        router.post("/console/services-ids") { request, _ in try await advance(request, kind: .services) }
    }

    private func advance(_ request: Request, kind: IdentifierDraft.Kind?) async throws -> Response {
        try await site.action(request, page: firstStep) { visit, form in
            var draft = IdentifierDraft(form, kind: kind)
            if kind != nil { draft.signInWithApple = true }
            let wantedStep = form.go.flatMap(IdentifierDraft.Step.init(rawValue:)) ?? .register
            guard let chosen = draft.kind else { return try await site.render(visit, try await page(.type, draft: nil, visit: visit)) }
            if wantedStep > .details {
                try await passing(.details, draft, visit) {
                    try await site.provider.checkNewIdentifier(
                        draft.identifier, description: draft.description, kind: chosen == .app ? .app : .service, teamID: visit.teamID)
                }
            }
            var reviewed: RegisteredClient?
            if wantedStep > .capabilities {
                reviewed = try await passing(.capabilities, draft, visit) {
                    guard draft.signInWithApple else { throw ConsoleError.invalid(site.text("console_capability_required", visit.locale)) }
                    return try await review(draft, visit: visit)
                }
            }
            guard wantedStep == .register, let reviewed else {
                return try await site.render(visit, try await page(wantedStep, draft: draft, visit: visit, reviewed: reviewed, arriving: true))
            }
            let client = try await passing(.review, draft, visit, reviewed: reviewed) { try await create(draft, visit: visit) }
            let path = client.kind == .app ? "/console/app-ids/" : "/console/services-ids/"
            return ConsoleSite.redirect(path + client.id.rawValue + "?registered=1")
        }
    }

    /// The flow's first page, where a refusal without a type lands.
    private func firstStep(_ visit: ConsoleSite.Visit, _ kept: ConsoleForm?) async throws -> ConsolePage {
        try await page(.type, draft: nil, visit: visit)
    }

    /// Runs a step's check; the engine's refusal becomes that step's page, with the draft as typed.
    private func passing<T>(
        _ step: IdentifierDraft.Step, _ draft: IdentifierDraft, _ visit: ConsoleSite.Visit, reviewed: RegisteredClient? = nil,
        _ check: () async throws -> T
    ) async throws -> T {
        do {
            return try await check()
        } catch let refusal as ConsoleError {
            throw try await site.error(
                refusal.message, status: ConsoleSite.status(refusal), visit: visit,
                page: try await page(step, draft: draft, visit: visit, reviewed: reviewed))
        }
    }

    private func review(_ draft: IdentifierDraft, visit: ConsoleSite.Visit) async throws -> RegisteredClient {
        switch draft.kind {
        case .app:
            return try await site.provider.reviewAppID(
                teamID: visit.teamID, bundleID: draft.identifier, description: draft.description, groupedWith: draft.primary)
        default:
            return try await site.provider.reviewServicesID(
                teamID: visit.teamID, identifier: draft.identifier, description: draft.description,
                primaryAppID: ClientID(rawValue: draft.primaryAppID), domains: ListField.entries(draft.domains),
                returnURLs: ListField.entries(draft.returnURLs))
        }
    }

    private func create(_ draft: IdentifierDraft, visit: ConsoleSite.Visit) async throws -> RegisteredClient {
        switch draft.kind {
        case .app:
            return try await site.provider.createAppID(
                teamID: visit.teamID, bundleID: draft.identifier, description: draft.description, groupedWith: draft.primary)
        default:
            return try await site.provider.createServicesID(
                teamID: visit.teamID, identifier: draft.identifier, description: draft.description,
                primaryAppID: ClientID(rawValue: draft.primaryAppID), domains: ListField.entries(draft.domains),
                returnURLs: ListField.entries(draft.returnURLs))
        }
    }

    /// A step's page. `reviewed` is what the engine would register (the review step shows it);
    /// `arriving` when the step is shown by Continue or Back rather than for its own refusal.
    private func page(
        _ step: IdentifierDraft.Step, draft: IdentifierDraft?, visit: ConsoleSite.Visit, reviewed: RegisteredClient? = nil,
        arriving: Bool = false
    ) async throws -> ConsolePage {
        let draft = draft ?? IdentifierDraft(ConsoleForm())
        let groups = try await visit.console.appGroups()
        let content = RegisterContent(
            isApp: draft.kind == .app, isServices: draft.kind == .services, description: draft.description,
            identifier: draft.identifier, hidden: draft.hidden(on: step),
            primaries: [PrimaryChoice](groups, chosen: draft.primaryAppID), hasPrimaries: !groups.isEmpty,
            signInWithApple: draft.signInWithApple || (arriving && step == .capabilities), domains: draft.domains, returnURLs: draft.returnURLs,
            limit: visit.team.kind.returnURLLimit,
            review: reviewed.map {
                ReviewedIdentifier(
                    isPrimary: $0.groupID == $0.id, group: $0.groupID.rawValue, domains: $0.domains, returnURLs: $0.returnURLs)
            })
        let template = step == .register ? "console_register_review" : "console_register_" + step.rawValue
        return ConsolePage(template: template, section: "identifiers", content: content)
    }
}

struct RegisterContent: Sendable {
    let isApp: Bool
    let isServices: Bool
    let description: String
    let identifier: String
    let hidden: [HiddenField]
    let primaries: [PrimaryChoice]
    let hasPrimaries: Bool
    /// The capability's checkbox: as chosen, and checked on arrival (it is the one this server offers).
    let signInWithApple: Bool
    let domains: String
    let returnURLs: String
    let limit: Int
    let review: ReviewedIdentifier?
}

/// What Register would store, as the engine normalized it.
struct ReviewedIdentifier: Sendable {
    let isPrimary: Bool
    let group: String
    let domains: [String]
    let returnURLs: [String]
}
