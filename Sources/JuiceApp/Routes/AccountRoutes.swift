import Hummingbird
import SignInWithApple

/// The account page and account deletion (revoke at Apple first, then delete everything).
struct AccountRoutes: Sendable {
    let services: JuiceServices

    struct DeleteForm: Decodable, CSRFProtected {
        var csrf: String
        var confirm: String?
    }

    func register(on router: Router<JuiceRequestContext>) {
        router.get("/account") { request, context in
            guard let account = context.account else { return JuiceServices.signInFirst(next: "/account") }
            let orders = try await services.orders.orders(accountID: account.id)
            var values: [String: Any] = [
                "displayName": account.displayName, "email": account.email, "emailIsPrivate": account.emailIsPrivate,
                "emailForwarding": account.emailForwarding, "usesSignInWithApple": account.usesSignInWithApple,
                "hasPassword": account.hasPassword, "bothMethods": account.usesSignInWithApple && account.hasPassword,
                "canUpgrade": !account.usesSignInWithApple,
            ]
            if request.uri.queryParameters.get("upgraded") != nil, account.usesSignInWithApple, !account.hasPassword {
                values["notice"] = "Your account now uses Sign in with Apple. Your Juice password was removed."
            }
            return try services.pages.render(
                "account", title: "Your account", ["account": values, "orders": orders.map { ["juice": $0.juice] }], context: context)
        }
        router.get("/account/delete") { _, context in
            guard let account = context.account else { return JuiceServices.signInFirst(next: "/account/delete") }
            return try services.pages.render(
                "delete", title: "Delete account", ["usesSignInWithApple": account.usesSignInWithApple], context: context)
        }
        router.post("/account/delete") { request, context in
            let form = try await FormInput.decode(DeleteForm.self, from: request, context: context)
            guard let account = context.account else { return JuiceServices.signInFirst(next: "/account/delete") }
            guard form.confirm == "yes" else {
                throw UserFacingError(
                    title: "Please confirm", message: "Tick the box to confirm that you want to delete your account.",
                    linkHref: "/account/delete", linkLabel: "Back")
            }
            // Revoke first: if Apple cannot be reached, nothing is deleted and the user can try again.
            if let refreshToken = account.appleRefreshToken {
                do {
                    try await services.siwa.tokens.revoke(token: refreshToken)
                } catch {
                    context.logger.warning("revocation failed; the account is kept", metadata: ["error": "\(error)"])
                    throw UserFacingError(
                        status: .badGateway, title: "We couldn't delete your account yet",
                        message: "Juice could not reach Apple to end Sign in with Apple. Nothing was deleted; please try again in a moment.",
                        linkHref: "/account/delete", linkLabel: "Try again")
                }
            }
            try await services.accounts.delete(id: account.id)
            var signedOut = context
            signedOut.account = nil
            var response = try services.pages.render(
                "deleted", title: "Account deleted", ["revoked": account.appleRefreshToken != nil], context: signedOut)
            response.setCookie(services.cookies.expired(JuiceCookies.session))
            return response
        }
    }
}
