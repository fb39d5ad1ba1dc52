import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// What every console page shares: the developer's session (a cookie whose hash is in the store, so
/// every server instance knows it), the CSRF token of its forms, the team switcher, the locale.
struct ConsoleSite: Sendable {
    static let sessionCookie = "siwa_console"
    static let loginCookie = "siwa_console_login"

    let provider: AppleIDProvider
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

    /// Every field a console form may carry, under its HTML name.
    struct Form: Decodable {
        var csrf: String?
        var locale: String?
        var email: String?
        var password: String?
        var teamID: String?
        var bundleID: String?
        var description: String?
        var primaryAppID: String?
        var identifier: String?
        var domains: String?
        var returnURLs: String?
        var groupID: String?
        var url: String?
        var sources: String?
        var value: String?
        var name: String?
        /// The new password's confirmation, and the current password when changing it.
        var confirm: String?
        var current: String?

        enum CodingKeys: String, CodingKey {
            case csrf, locale, email, password, description, identifier, domains, url, sources, value, name, confirm, current
            case teamID = "team_id"
            case bundleID = "bundle_id"
            case primaryAppID = "primary_app_id"
            case returnURLs = "return_urls"
            case groupID = "group_id"
        }
    }

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

    /// Runs a signed-in form POST after checking its CSRF token. A refusal of the engine is shown on
    /// the page `onError` renders, with the engine's message.
    func action(
        _ request: Request, _ body: (Visit, Form) async throws -> Response, onError: (Visit, ConsoleError) async throws -> Response
    ) async throws -> Response {
        let form = try await decode(request)
        guard let visit = try await visit(request) else { return Self.redirect("/console") }
        guard let csrf = form.csrf, ConstantTime.equal(csrf, visit.session.csrfToken) else {
            return try render(
                visit, template: "console_expired", section: "", content: [String: String](), error: text("console_form_expired", visit.locale),
                status: .forbidden)
        }
        do {
            return try await body(visit, form)
        } catch let error as ConsoleError {
            return try await onError(visit, error)
        }
    }

    func decode(_ request: Request) async throws -> Form {
        do {
            return try await FormDecoding.decodeForm(Form.self, from: request)
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read.")
        }
    }

    /// A console page: `content` is what the template reads under `{{#content}}`.
    func render(
        _ visit: Visit, template: String, section: String, content: some Sendable, message: String? = nil, error: String? = nil,
        status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let teams = visit.developer.teamIDs.map { TeamChoice(id: $0.rawValue, selected: $0 == visit.teamID) }
        let page = ConsolePageModel(
            locale: visit.locale, t: renderer.strings.table(visit.locale), wide: true,
            csrf: visit.session.csrfToken, developer: visit.developer.name, developerEmail: visit.developer.email,
            teamName: visit.team.name, teamID: visit.teamID.rawValue, teamKind: visit.team.kind.rawValue, teams: teams,
            hasSeveralTeams: teams.count > 1, section: [section: true], message: message, error: error,
            developmentMode: provider.configuration.developmentMode, content: content)
        return try renderer.render(page, template: template, status: status)
    }

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

    /// An absolute link to a path of this server.
    func link(_ path: String) -> String { baseURL + path }

    /// A date as the console's tables show it.
    static func day(_ date: Date) -> String { date.ISO8601Format() }

    static func redirect(_ location: String) -> Response {
        Response(status: .seeOther, headers: [.location: location])
    }
}

struct TeamChoice: Sendable {
    let id: String
    let selected: Bool
}

struct ConsolePageModel<Content: Sendable>: Sendable {
    let locale: String
    let t: [String: String]
    let wide: Bool
    let csrf: String
    let developer: String
    let developerEmail: String
    let teamName: String
    let teamID: String
    let teamKind: String
    let teams: [TeamChoice]
    let hasSeveralTeams: Bool
    /// The navigation's current section, as `{{#section.keys}}`.
    let section: [String: Bool]
    let message: String?
    let error: String?
    let developmentMode: Bool
    let content: Content
}
