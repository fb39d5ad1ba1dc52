import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// `/account/sign-in` and `/account/verify`: the account pages' own sign-in, the password and then
/// the two-factor code, each form bound to its cookie (login CSRF), wrong codes counted against the
/// Apple ID in the store.
struct AccountSignInEndpoints {
    let pages: AccountEndpoints

    func register(on router: Router<AppleIDRequestContext>) {
        router.post("/account/sign-in") { request, _ in
            let form = try await pages.decode(request)
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            // Login CSRF: without this, another site could post its own Apple ID and password here and
            // sign the victim's browser in to the attacker's Apple ID.
            guard let loginCookie = pages.cookies.value(AccountEndpoints.loginCookie, in: request),
                pages.cookies.formTokens.matches(form.csrf, "account-login-csrf:", loginCookie)
            else { return try pages.signInPage(request, locale: locale, message: pages.text("message_form_expired", locale), status: .badRequest) }
            let account: AppleIDAccount
            let step: SignInStep<AppleIDAccount>
            do {
                step = try await pages.provider.interactions.accountForSignIn(appleID: form.appleID ?? "", password: form.password ?? "")
            } catch is ManagedSignInUnavailable {
                return try pages.signInPage(
                    request, locale: locale, message: pages.text("message_organization_sign_in_unavailable", locale), status: .serviceUnavailable)
            }
            switch step {
            case .passed(let signedIn): account = signedIn
            case .incorrect:
                return try pages.signInPage(request, locale: locale, message: pages.text("message_incorrect_password", locale), status: .unauthorized)
            case .locked(let until):
                return try pages.signInPage(request, locale: locale, message: lockMessage(until, locale), status: .tooManyRequests)
            }
            if !account.twoFactorEnabled,
                case .passed(let session) = try await pages.provider.interactions.startAccountSession(accountID: account.id, code: nil)
            {
                return signedInRedirect(session: session, locale: form.locale)
            }
            let token = pages.provider.random.hex(bytes: 32)
            try await pages.pending.start(token: token, accountID: account.id)
            var response = try codePage(account, pendingToken: token, locale: locale)
            response.setCookie(pages.cookies.cookie(AccountEndpoints.pendingCookie, value: token, path: "/account"))
            return response
        }
        router.post("/account/verify") { request, _ in
            let form = try await pages.decode(request)
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            guard let token = pages.cookies.value(AccountEndpoints.pendingCookie, in: request),
                pages.cookies.formTokens.matches(form.csrf, "account-verify-csrf:", token),
                let account = try await pages.pending.account(token: token)
            else {
                return try pages.signInPage(
                    request, locale: locale, message: pages.text("message_account_sign_in_expired", locale), status: .badRequest)
            }
            // Wrong codes count against the Apple ID in the store (SignInLockPolicy), not against this
            // sign-in: starting again does not buy more guesses.
            switch try await pages.provider.interactions.startAccountSession(accountID: account.id, code: form.code ?? "") {
            case .passed(let session):
                try await pages.pending.finish(token: token)
                return signedInRedirect(session: session, locale: form.locale)
            case .incorrect:
                return try codePage(
                    account, pendingToken: token, locale: locale, message: pages.text("message_incorrect_code", locale), status: .unauthorized)
            case .locked(let until):
                try await pages.pending.finish(token: token)
                return try pages.signInPage(request, locale: locale, message: lockMessage(until, locale), status: .tooManyRequests)
            }
        }
    }

    private func lockMessage(_ until: Date, _ locale: String) -> String {
        pages.renderer.strings.translate(message: SignInLockPolicy.message(lockedUntil: until, now: pages.provider.clock.now()), locale)
    }

    /// To `/account`, in the language of the sign-in's pages.
    private func signedInRedirect(session: String, locale: String?) -> Response {
        let chosen = locale.flatMap(PageLocale.supportedLocale)
        var response = Response(status: .seeOther, headers: [.location: "/account" + (chosen.map { "?locale=\($0)" } ?? "")])
        response.setCookie(
            pages.cookies.cookie(
                AccountEndpoints.sessionCookie, value: session, path: "/account", maxAge: Int(pages.provider.configuration.browserSessionLifetime)))
        return response
    }

    private func codePage(
        _ account: AppleIDAccount, pendingToken: String, locale: String, message: String? = nil, status: HTTPResponse.Status = .ok
    ) throws -> Response {
        try pages.renderer.render(
            AccountSignInPage(
                locale: locale, t: pages.renderer.strings.table(locale, values: ["apple_id": account.appleID]), passwordStep: false, codeStep: true,
                appleID: account.appleID,
                developmentCode: pages.developmentMode ? pages.provider.currentSecondFactorCode(for: account) : nil, message: message,
                csrf: pages.cookies.formTokens.token("account-verify-csrf:", pendingToken)),
            template: "account_sign_in", status: status)
    }
}
