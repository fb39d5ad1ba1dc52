import AppleIDProtocol
import AppleIDProvider
import Hummingbird

/// The sign-in, two-factor, consent and "Continue" pages: plain HTML forms that work without
/// JavaScript. Every POST must come from the browser that started the interaction and carry its
/// CSRF token.
struct InteractionEndpoints {
    let provider: AppleIDProvider
    let pages: InteractionPages
    let delivery: AuthorizationDelivery
    let cookies: BrowserCookies

    /// The fields any of the forms may send.
    struct Form: Decodable {
        var csrf: String?
        var action: String?
        var appleID: String?
        var password: String?
        var code: String?
        var firstName: String?
        var lastName: String?
        var email: String?
        /// The language of the page that posted (PageLocale).
        var locale: String?

        enum CodingKeys: String, CodingKey {
            case csrf, action, locale
            case appleID = "apple_id"
            case password, code
            case firstName = "first_name"
            case lastName = "last_name"
            case email
        }
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/auth/interaction/:id") { request, context in
            let id = try context.parameters.require("id")
            guard let interaction = try await provider.interactions.load(id: id, browserBinding: cookies.bindingValue(in: request), csrfToken: nil)
            else { throw pages.expired(locale: PageLocale.choose(for: request)) }
            return try await pages.render(interaction, message: nil, locale: PageLocale.choose(for: request))
        }
        router.post("/auth/interaction/:id") { request, context in
            let id = try context.parameters.require("id")
            let form: Form
            do throws(OAuthError) {
                form = try await FormDecoding.decodeForm(Form.self, from: request)
            } catch {
                throw pages.error(error, locale: PageLocale.choose(for: request))
            }
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            guard let csrf = form.csrf,
                let interaction = try await provider.interactions.load(id: id, browserBinding: cookies.bindingValue(in: request), csrfToken: csrf)
            else { throw pages.expired(locale: locale) }
            return try await handle(form, interaction: interaction, locale: locale)
        }
    }

    private func handle(_ form: Form, interaction: Interaction, locale: String) async throws -> Response {
        let interactions = provider.interactions
        switch form.action {
        case "cancel":
            return try await respond(try await interactions.cancel(interaction), locale: locale)
        case "sign-in":
            return try await respond(
                try await interactions.signIn(interaction, appleID: form.appleID ?? "", password: form.password ?? ""), locale: locale)
        case "verify":
            return try await respond(try await interactions.verifySecondFactor(interaction, code: form.code ?? ""), locale: locale)
        case "approve":
            // "share" (older forms) or an address of the account; the issuer ignores an address that is not the account's.
            let shared = form.email == "hide" || form.email == "share" ? nil : form.email
            let choices = ConsentChoices(
                firstName: form.firstName ?? "", lastName: form.lastName ?? "", hideEmail: form.email == "hide", sharedEmail: shared)
            return try await respond(try await interactions.approve(interaction, choices: choices), locale: locale)
        default:
            return try await pages.render(interaction, message: nil, locale: locale)
        }
    }

    /// The outcome's page or redirect, signing the browser in when a step started a session.
    private func respond(_ result: (InteractionService.Outcome, sessionCookie: String?), locale: String) async throws -> Response {
        var response = try await respond(result.0, locale: locale)
        if let session = result.sessionCookie {
            response.setCookie(cookies.sessionCookie(session, maxAge: Int(provider.configuration.browserSessionLifetime)))
        }
        return response
    }

    private func respond(_ outcome: InteractionService.Outcome, locale: String) async throws -> Response {
        switch outcome {
        case .show(let interaction, let message): return try await pages.render(interaction, message: message, locale: locale)
        case .finished(let answer): return try delivery.deliver(answer)
        case .invalid(let message): throw pages.expired(message: message, locale: locale)
        }
    }
}
