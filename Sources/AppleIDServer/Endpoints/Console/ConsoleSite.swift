import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Hummingbird

/// What every console page shares: the developer's session (a cookie whose hash is in the store, so
/// every server instance knows it), the CSRF token of its forms, the team switcher, the locale.
struct ConsoleSite: Sendable {
    static let sessionCookie = "siwa_console"
    static let loginCookie = "siwa_console_login"

    let provider: AppleIDProvider
    /// The Relay page's traffic, and where invitations go.
    let relay: MailRelay
    let renderer: PageRenderer
    /// The pages' cookies: Secure and `__Host-` when the server is reached over HTTPS.
    let cookies: BrowserCookies
    var secureCookies: Bool { cookies.secure }
    /// The server's own URL, for links a developer sends on (an invitation's).
    let baseURL: String

    /// A signed-in developer's request.
    struct Visit: Sendable {
        let cookie: String
        let session: ConsoleSession
        let developer: DeveloperAccount
        let team: DeveloperTeam
        /// Every read of the console's pages, scoped by the engine to ``teamID``.
        let console: ConsoleView
        let locale: String
        var teamID: TeamID { team.id }
    }

    /// Builds a section's page for a visit. `kept` is the form an action was refused with (its
    /// secrets removed), so that the page shows the developer's input again; `nil` on a plain visit.
    typealias PageBuilder = (Visit, ConsoleForm?) async throws -> ConsolePage

    func visit(_ request: Request) async throws -> Visit? {
        guard let cookie = cookies.value(Self.sessionCookie, in: request), cookie.count == 64,
            let (session, developer) = try await provider.consoleSession(cookie: cookie)
        else { return nil }
        let console = provider.console(team: session.teamID)
        guard let team = try await console.team() else { return nil }
        return Visit(
            cookie: cookie, session: session, developer: developer, team: team, console: console, locale: PageLocale.choose(for: request))
    }

    /// Runs a signed-in GET; a browser without a session goes to the sign-in page.
    func page(_ request: Request, _ body: (Visit) async throws -> Response) async throws -> Response {
        guard let visit = try await visit(request) else { return Self.redirect("/console") }
        return try await body(visit)
    }

    /// Runs a signed-in form POST after checking its CSRF token. The action's page is `page`: a refusal
    /// of the engine thrown by `body` becomes that page, showing the engine's message and the form's
    /// input, rendered where thrown errors are (``PageError``).
    func action(_ request: Request, page: PageBuilder, _ body: (Visit, ConsoleForm) async throws -> Response) async throws -> Response {
        let form = try await decode(request)
        guard let visit = try await visit(request) else { return Self.redirect("/console") }
        guard let csrf = form.csrf, ConstantTime.equal(csrf, visit.session.csrfToken) else {
            throw try await error(
                text("console_form_expired", visit.locale), status: .forbidden, visit: visit,
                page: ConsolePage(template: "console_expired", section: "", content: [String: String]()))
        }
        do {
            return try await body(visit, form)
        } catch let refusal as ConsoleError {
            throw try await error(refusal.message, status: Self.status(refusal), visit: visit, page: try await page(visit, form.kept))
        }
    }

    func decode(_ request: Request) async throws -> ConsoleForm { try await FormDecoding.decodePageForm(ConsoleForm.self, from: request) }

    /// A section's page as a plain visit sees it, with an optional confirmation `message`.
    func show(_ visit: Visit, _ page: PageBuilder, message: String? = nil) async throws -> Response {
        try await render(visit, try await page(visit, nil), message: message)
    }

    /// A console page with an optional confirmation `message`.
    func render(_ visit: Visit, _ page: ConsolePage, message: String? = nil) async throws -> Response {
        try renderer.render(try await model(visit, page, message: message, error: nil), template: page.template)
    }

    /// A console page showing `message` as an error, to be thrown.
    func error(_ message: String, status: HTTPResponse.Status, visit: Visit, page: ConsolePage) async throws -> PageError {
        PageError(status: status, template: page.template, model: try await model(visit, page, message: nil, error: message), renderer: renderer)
    }

    /// The page of a sign-in step that did not pass: a wrong password (401) or a lock (429). `page`
    /// shows the reason; a passed step gives its value.
    func passed<Value>(
        _ step: SignInStep<Value>, locale: String, page: (_ message: String, _ status: HTTPResponse.Status) async throws -> PageError
    ) async throws -> Value {
        switch step {
        case .passed(let value): return value
        case .incorrect: throw try await page(text("console_incorrect_password", locale), .unauthorized)
        case .locked(let until):
            let minutes = max(1, Int((until.timeIntervalSince(provider.clock.now()) / 60).rounded(.up)))
            throw try await page(text("console_locked", locale, values: ["minutes": "\(minutes)"]), .tooManyRequests)
        }
    }

    private func model(_ visit: Visit, _ page: ConsolePage, message: String?, error: String?) async throws -> ConsolePageModel {
        // Named teams in the switcher, as Apple's portal shows them; a developer belongs to a few teams.
        let teams = try await provider.teams(of: visit.developer).map {
            TeamChoice(id: $0.id.rawValue, name: $0.name, selected: $0.id == visit.teamID)
        }
        return ConsolePageModel(
            locale: visit.locale, t: renderer.strings.table(visit.locale), wide: true,
            csrf: visit.session.csrfToken, developer: visit.developer.name, developerEmail: visit.developer.email,
            teamName: visit.team.name, teamID: visit.teamID.rawValue, teamKind: text("console_kind_" + visit.team.kind.rawValue, visit.locale),
            teams: teams,
            hasSeveralTeams: teams.count > 1, section: [page.section: true], message: message, error: error,
            developmentMode: provider.configuration.developmentMode, content: page.content)
    }

    /// A refusal's status: 404 for something this team does not have, 400 for the rest.
    static func status(_ error: ConsoleError) -> HTTPResponse.Status { error.kind == .notFound ? .notFound : .badRequest }

    func text(_ key: String, _ locale: String, values: [String: String] = [:]) -> String {
        renderer.strings.text(key, locale, values: values)
    }

    func sessionCookie(_ value: String) -> Cookie {
        cookies.cookie(
            Self.sessionCookie, value: value, path: "/console", maxAge: Int(provider.configuration.consoleSessionLifetime), sameSite: .strict)
    }

    /// The value of the cookie that binds the sign-in and invitation forms to this browser (their login
    /// CSRF token is derived from it): the browser's own, or a new one to set (`cookie` is then non-nil).
    func loginBinding(_ request: Request) -> (value: String, cookie: Cookie?) {
        let existing = cookies.value(Self.loginCookie, in: request)?.filter(\.isHexDigit)
        if let existing, existing.count == 64 { return (existing, nil) }
        let value = provider.random.hex(bytes: 32)
        return (value, cookies.cookie(Self.loginCookie, value: value, path: "/console"))
    }

    /// The confirmation of a registration, on the new identifier's page (`?registered=1`).
    func registered(_ request: Request, _ id: ClientID, _ visit: Visit) -> String? {
        request.uri.queryParameters["registered"] == nil ? nil : text("console_registered", visit.locale, values: ["id": id.rawValue])
    }

    /// `text` when it is an identifier of letters, digits, hyphens and periods (one a query may name back).
    static func plainIdentifier(_ text: String) -> String? {
        let allowed = text.count <= 155 && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == ".") }
        return allowed && !text.isEmpty ? text : nil
    }

    /// An absolute link to a path of this server.
    func link(_ path: String) -> String { baseURL + path }

    /// A date as the console's tables show it.
    static func day(_ date: Date) -> String { date.ISO8601Format() }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}
