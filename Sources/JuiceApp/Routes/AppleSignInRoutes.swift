import Hummingbird
import SignInWithApple
import SignInWithAppleHummingbird

/// Sign in with Apple: the button (a CSRF-protected POST that starts the round trip with an intent),
/// the upgrade of a password account, and the kit's callback and notification routes.
struct AppleSignInRoutes: Sendable {
    let services: JuiceServices

    struct StartForm: Decodable, CSRFProtected {
        var csrf: String
        var next: String?
    }

    func register(on router: Router<JuiceRequestContext>) {
        router.post("/signin/apple") { request, context in
            let form = try await FormInput.decode(StartForm.self, from: request, context: context)
            return try await services.startAppleSignIn(SignInIntent(purpose: .signIn, next: FormInput.localPath(form.next)))
        }
        router.post("/account/upgrade") { request, context in
            _ = try await FormInput.decode(CSRFOnlyForm.self, from: request, context: context)
            guard let account = context.account else { return JuiceServices.signInFirst(next: "/account") }
            guard !account.usesSignInWithApple else { return JuiceServices.redirect(to: "/account") }
            return try await services.startAppleSignIn(SignInIntent(purpose: .upgrade, accountID: account.id, next: "/account"))
        }
        let callback = AppleCallback(services: services)
        let notifications = AppleNotifications(accounts: services.accounts, sessions: services.sessions)
        SignInWithAppleRoutes<JuiceRequestContext>(
            client: services.siwa,
            onSignIn: { result, _, context in try await callback.complete(result, context: context) },
            onFailure: { error, _, context in try callback.failed(error, context: context) },
            onNotification: { notification, context in try await notifications.apply(notification, logger: context.logger) }
        ).register(on: router)
    }
}
