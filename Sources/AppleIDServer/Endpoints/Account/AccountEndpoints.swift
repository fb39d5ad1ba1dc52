import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Crypto
import Foundation
import Hummingbird

/// `/account`: the Apple ID user's own pages. Sign in (password, then the two-factor code), see the
/// apps using the Apple ID and stop using it with one, switch Hide My Email forwarding, delete the
/// Apple ID. The pages have their own sign-in and session cookie (`siwa_account`, Path=/account), as
/// Apple's do: the sign-in pages' session does not open them, nor theirs the sign-in pages (the engine
/// keeps the two apart, ``BrowserSession/Purpose``).
/// Plain HTML forms; every POST carries a CSRF token derived from the account session cookie under
/// the server's secret (``FormTokens``; the cookie is HttpOnly and SameSite=Lax, so another site can
/// neither read nor send it, and a planted one gives nobody the token).
struct AccountEndpoints {
    static let pendingCookie = "siwa_account_pending"
    static let loginCookie = "siwa_account_login"
    static let sessionCookie = "siwa_account"

    let provider: AppleIDProvider
    /// The mailbox pages' mail (``AccountMailEndpoints``).
    let relay: MailRelay
    let renderer: PageRenderer
    let cookies: BrowserCookies
    let developmentMode: Bool
    var pending: PendingAccountSignIns { provider.interactions.pendingAccountSignIns }

    struct Form: Decodable {
        var csrf: String?
        var appleID: String?
        var password: String?
        var code: String?
        var groupID: String?
        var teamID: String?
        var forwarding: String?
        var confirm: String?
        /// The language of the page that posted (PageLocale).
        var locale: String?

        enum CodingKeys: String, CodingKey {
            case csrf, password, code, forwarding, confirm, locale
            case appleID = "apple_id"
            case groupID = "group_id"
            case teamID = "team_id"
        }
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/account") { request, _ in
            let locale = PageLocale.choose(for: request)
            guard let (account, cookie) = try await signedIn(request) else { return try signInPage(request, locale: locale) }
            return try await accountPage(account, cookie: cookie, message: nil, locale: locale)
        }
        AccountSignInEndpoints(pages: self).register(on: router)
        router.post("/account/stop-using") { request, _ in
            try await act(request) { account, form in
                try await provider.lifecycle.stopUsing(accountID: account.id, groupID: ClientID(rawValue: form.groupID ?? ""))
                return "message_stopped_using"
            }
        }
        AccountMailEndpoints(account: self).register(on: router)
        router.post("/account/relay") { request, _ in
            try await act(request) { account, form in
                let enabled = form.forwarding == "on"
                try await provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TeamID(rawValue: form.teamID ?? ""), enabled: enabled)
                return enabled ? "message_forwarding_on" : "message_forwarding_off"
            }
        }
        router.post("/account/delete") { request, _ in
            let form = try await decode(request)
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            guard let (account, cookie) = try await signedIn(request) else { return try signInPage(request, locale: locale) }
            guard csrfMatches(form.csrf, cookie) else {
                return try signInPage(request, locale: locale, message: text("message_form_expired", locale), status: .badRequest)
            }
            guard form.confirm == "DELETE" else {
                return try await accountPage(account, cookie: cookie, message: text("message_type_delete", locale), locale: locale)
            }
            try await provider.lifecycle.deleteAccount(accountID: account.id)
            return try signInPage(request, locale: locale, message: text("message_deleted", locale))
        }
        router.post("/account/sign-out") { request, _ in
            var response = Response(status: .seeOther, headers: [.location: "/account"])
            if let (_, cookie) = try await signedIn(request) {
                let form = try await decode(request)
                if csrfMatches(form.csrf, cookie) {
                    try await provider.interactions.endAccountSession(cookie: cookie)
                    response.setCookie(cookies.cookie(Self.sessionCookie, value: "", path: "/account", maxAge: 0))
                }
            }
            return response
        }
    }

    /// Runs a signed-in user's action after checking the CSRF token; shows the page with its outcome
    /// (`action` answers the key of its message).
    private func act(_ request: Request, _ action: (AppleIDAccount, Form) async throws -> String) async throws -> Response {
        let form = try await decode(request)
        let locale = PageLocale.choose(for: request, formLocale: form.locale)
        guard let (account, cookie) = try await signedIn(request) else { return try signInPage(request, locale: locale) }
        guard csrfMatches(form.csrf, cookie) else {
            return try signInPage(request, locale: locale, message: text("message_form_expired", locale), status: .badRequest)
        }
        let message: String
        do {
            let key = try await action(account, form)
            message = text(key, locale)
        } catch let error as LifecycleError {
            message = text("message_did_not_work", locale, values: ["reason": error.description])
        }
        return try await accountPage(account, cookie: cookie, message: message, locale: locale)
    }

    func text(_ key: String, _ locale: String, values: [String: String] = [:]) -> String {
        renderer.strings.text(key, locale, values: values)
    }

    func signedIn(_ request: Request) async throws -> (AppleIDAccount, String)? {
        guard let cookie = cookies.value(Self.sessionCookie, in: request),
            let account = try await provider.interactions.account(accountSessionCookie: cookie)
        else { return nil }
        return (account, cookie)
    }

    func decode(_ request: Request) async throws -> Form { try await FormDecoding.decodePageForm(Form.self, from: request) }

    func csrf(_ sessionCookie: String) -> String { cookies.formTokens.token("account-csrf:", sessionCookie) }

    /// Compared in constant time.
    func csrfMatches(_ submitted: String?, _ sessionCookie: String) -> Bool {
        cookies.formTokens.matches(submitted, "account-csrf:", sessionCookie)
    }

    private func accountPage(_ account: AppleIDAccount, cookie: String, message: String?, locale: String) async throws -> Response {
        try renderer.render(
            try await AccountPageModel.load(
                account: account, csrf: csrf(cookie), message: message, locale: locale, strings: renderer.strings, provider: provider),
            template: "account")
    }
}
