import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// An invitation's page, reached from its link without a console session: the invited person creates
/// their developer account with their own password, or signs in to the existing one, and so joins the
/// team. Its form carries a token derived from the login cookie, as the sign-in form does.
struct ConsoleInvitationEndpoints {
    let site: ConsoleSite

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/console/invitations/:token") { request, context in
            let token = try context.parameters.require("token")
            return try await page(request, token: token, locale: PageLocale.choose(for: request))
        }
        router.post("/console/invitations/:token") { request, context in
            let token = try context.parameters.require("token")
            let form = try await site.decode(request)
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            guard let loginCookie = site.cookies.value(ConsoleSite.loginCookie, in: request),
                site.cookies.formTokens.matches(form.csrf, Self.formPurpose, loginCookie)
            else {
                return try await page(request, token: token, locale: locale, message: site.text("console_form_expired", locale), status: .badRequest)
            }
            do {
                return try await accept(request, token: token, form: form, locale: locale)
            } catch let refusal as ConsoleError {
                throw try await refused(request, token: token, locale: locale, message: refusal.message, status: ConsoleSite.status(refusal))
            }
        }
    }

    /// Creates the account (name, password and its confirmation) or checks the existing one's password.
    private func accept(_ request: Request, token: String, form: ConsoleForm, locale: String) async throws -> Response {
        guard let details = try await site.provider.invitation(token: token) else {
            return try await page(request, token: token, locale: locale, status: .notFound)
        }
        let password = form.password ?? ""
        let signIn: ConsoleSignIn
        if details.hasAccount {
            signIn = try await site.passed(try await site.provider.acceptInvitation(token: token, password: password), locale: locale) {
                try await refused(request, token: token, locale: locale, message: $0, status: $1)
            }
        } else {
            guard password == (form.confirm ?? "") else {
                throw try await refused(
                    request, token: token, locale: locale, message: site.text("console_passwords_differ", locale), status: .badRequest)
            }
            signIn = try await site.provider.acceptInvitation(token: token, name: form.name ?? "", password: password)
        }
        var response = ConsoleSite.redirect("/console/identifiers")
        response.setCookie(site.sessionCookie(signIn.cookie))
        return response
    }

    private func page(
        _ request: Request, token: String, locale: String, message: String? = nil, status: HTTPResponse.Status = .ok
    ) async throws -> Response {
        let (model, newCookie) = try await invitationPage(request, token: token, locale: locale, message: message)
        var response = try site.renderer.render(model, template: "console_invitation", status: model.found ? status : .notFound)
        if let newCookie { response.setCookie(newCookie) }
        return response
    }

    /// The invitation page showing why the form was refused, to be thrown (the form's login cookie is
    /// already set: the form was accepted as this browser's).
    private func refused(
        _ request: Request, token: String, locale: String, message: String, status: HTTPResponse.Status
    ) async throws -> PageError {
        let (model, _) = try await invitationPage(request, token: token, locale: locale, message: message)
        return PageError(status: model.found ? status : .notFound, template: "console_invitation", model: model, renderer: site.renderer)
    }

    private func invitationPage(
        _ request: Request, token: String, locale: String, message: String?
    ) async throws -> (page: InvitationPage, cookie: Cookie?) {
        let (loginCookie, newCookie) = site.loginBinding(request)
        let details = try await site.provider.invitation(token: token)
        let model = InvitationPage(
            locale: locale, t: site.renderer.strings.table(locale), message: message,
            csrf: site.cookies.formTokens.token(Self.formPurpose, loginCookie),
            action: "/console/invitations/" + token.filter(\.isHexDigit), found: details != nil,
            teamName: details?.team.name ?? "", teamID: details?.team.id.rawValue ?? "", email: details?.email ?? "",
            hasAccount: details?.hasAccount ?? false)
        return (model, newCookie)
    }

    /// What the form token of the invitation page is for (it is an HMAC of the login cookie).
    static let formPurpose = "console-invitation-csrf:"

}

struct InvitationPage: Sendable {
    let locale: String
    let t: [String: String]
    let message: String?
    let csrf: String
    let action: String
    /// Whether the link is a live invitation; if not, the page says it is used, withdrawn or expired.
    let found: Bool
    let teamName: String
    let teamID: String
    let email: String
    /// An existing account signs in to accept; a new one is created.
    let hasAccount: Bool
}
