import Hummingbird
import SignInWithApple
import SignInWithAppleHummingbird

/// Sign in with Apple: the redirect button (a CSRF-protected POST that starts the round trip, bound
/// to the browser by the kit, with an intent), the popup's start (the same POST, answered with Sign
/// in with Apple JS's configuration), the sign-in page's script, the upgrade of a password account,
/// and the kit's callback, completion, popup and notification routes (without its GET start route).
///
/// Every start is a POST with the page's CSRF token: showing a page starts nothing, so anonymous
/// visits cannot fill the kit's storage or Juice's intents.
struct AppleSignInRoutes: Sendable {
    let services: JuiceServices

    struct StartForm: Decodable, CSRFProtected {
        var csrf: String
        var next: String?
    }

    func register(on router: Router<JuiceRequestContext>) {
        router.post("/signin/apple") { request, context in
            let form = try await FormInput.decode(StartForm.self, from: request, context: context)
            return try await services.startAppleSignIn(.signIn, next: FormInput.localPath(form.next), request: request)
        }
        router.post("/signin/apple/script") { request, context in
            let form = try await FormInput.decode(StartForm.self, from: request, context: context)
            let (script, cookie) = try await services.siwa.startScript(for: request)
            try await services.intents.save(SignInIntent(purpose: .signIn, next: FormInput.localPath(form.next)), state: script.state)
            var response = Response(
                status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(string: script.initOptionsJSON)))
            response.setCookie(cookie)
            return response
        }
        router.get("/scripts/sign-in.js") { _, _ in services.pages.renderer.signInScriptResponse() }
        router.post("/account/upgrade") { request, context in
            _ = try await FormInput.decode(CSRFOnlyForm.self, from: request, context: context)
            guard let account = context.account else { return JuiceServices.signInFirst(next: "/account") }
            guard !account.usesSignInWithApple else { return JuiceServices.redirect(to: "/account") }
            return try await services.startAppleSignIn(.upgrade, accountID: account.id, next: "/account", request: request)
        }
        let completion = AppleCompletion(services: services)
        let notifications = AppleNotifications(accounts: services.accounts, sessions: services.sessions)
        SignInWithAppleRoutes<JuiceRequestContext>(
            client: services.siwa,
            onSignIn: { result, _, context in try await completion.complete(result, context: context) },
            onFailure: { error, _, context in try completion.failed(error, context: context) },
            onNotification: { notification, context in try await notifications.apply(notification, logger: context.logger) }
        ).register(on: router, start: nil)  // a GET start anyone could link to: Juice starts with a CSRF-checked POST
    }
}
