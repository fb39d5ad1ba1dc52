import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// `/console`: the developer console (Certificates, Identifiers & Profiles for Sign in with Apple).
/// Sign-in, sign-out and the team switcher live here; each section has its own endpoints.
struct ConsoleEndpoints {
    let site: ConsoleSite
    var identifiers: ConsoleIdentifierEndpoints { ConsoleIdentifierEndpoints(site: site) }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console") { request, _ in
            if try await site.visit(request) != nil { return ConsoleSite.redirect("/console/identifiers") }
            return try renderSignInPage(request, locale: PageLocale.choose(for: request))
        }
        router.post("/console/sign-in") { request, _ in
            let form = try await site.decode(request)
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            // Login CSRF: another site must not sign this browser in to the attacker's developer account.
            guard let loginCookie = site.cookies.value(ConsoleSite.loginCookie, in: request),
                site.cookies.formTokens.matches(form.csrf, "console-login-csrf:", loginCookie)
            else { return try renderSignInPage(request, locale: locale, message: site.text("console_form_expired", locale), status: .badRequest) }
            let outcome = try await site.provider.signInDeveloper(email: form.email ?? "", password: form.password ?? "")
            let signIn = try await site.passed(outcome, locale: locale) { message, status in
                PageError(
                    status: status, template: "console_sign_in", model: signInPage(request, locale: locale, message: message).page,
                    renderer: site.renderer)
            }
            var response = ConsoleSite.redirect("/console/identifiers")
            response.setCookie(site.sessionCookie(signIn.cookie))
            return response
        }
        router.post("/console/sign-out") { request, _ in
            try await site.action(request, page: identifiers.list) { visit, _ in
                try await site.provider.signOutDeveloper(cookie: visit.cookie)
                var response = ConsoleSite.redirect("/console")
                response.setCookie(site.cookies.cookie(ConsoleSite.sessionCookie, value: "", path: "/console", maxAge: 0, sameSite: .strict))
                return response
            }
        }
        router.post("/console/team") { request, _ in
            // A team the developer is not in is refused on the Identifiers page, with the engine's reason.
            try await site.action(request, page: identifiers.list) { visit, form in
                try await site.provider.switchTeam(cookie: visit.cookie, to: TeamID(rawValue: form.teamID ?? ""))
                return ConsoleSite.redirect("/console/identifiers")
            }
        }
    }

    /// The sign-in form. It carries a token derived from the login cookie (set here when the browser
    /// has none), which `/console/sign-in` requires.
    private func signInPage(_ request: Request, locale: String, message: String? = nil) -> (page: ConsoleSignInPage, cookie: Cookie?) {
        let (loginCookie, newCookie) = site.loginBinding(request)
        let page = ConsoleSignInPage(
            locale: locale, t: site.renderer.strings.table(locale), message: message,
            csrf: site.cookies.formTokens.token("console-login-csrf:", loginCookie))
        return (page, newCookie)
    }

    private func renderSignInPage(
        _ request: Request, locale: String, message: String? = nil, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        let (page, newCookie) = signInPage(request, locale: locale, message: message)
        var response = try site.renderer.render(page, template: "console_sign_in", status: status)
        if let newCookie { response.setCookie(newCookie) }
        return response
    }
}

struct ConsoleSignInPage: Sendable {
    let locale: String
    let t: [String: String]
    let message: String?
    let csrf: String
}
