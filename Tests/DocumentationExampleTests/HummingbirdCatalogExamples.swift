// swift-format-ignore-file
// The examples are the documentation's text, verbatim: formatting them would part them from it.
import Hummingbird
import SignInWithApple
import SignInWithAppleHummingbird

// SignInWithAppleHummingbird.docc, verbatim, inside functions that declare what each example takes
// from the app around it.

func hummingbirdRoutes(configuration: SignInWithAppleClient.Configuration, persist: any PersistDriver, accounts: Accounts, sessions: Sessions)
    throws -> Router<BasicRequestContext>
{
    // Several instances: keep the sign-ins in flight in a shared persist driver (Redis, Fluent…).
    let siwa = try SignInWithAppleClient(
        configuration: configuration, storage: PersistSignInWithAppleStorage(driver: persist, prefix: "siwa:"))
    let router = Router()
    SignInWithAppleRoutes<BasicRequestContext>(
        client: siwa,
        onSignIn: { result, request, context in
            // Runs in GET /auth/apple/complete, in the browser that started the sign-in. Find the account
            // by result.identity.subject; on the first authorization create it with result.profile's name
            // (it never comes again) and result.identity.email; store result.grant.
            let account = try await accounts.signIn(result)
            return try await sessions.start(for: account, redirectTo: "/")
        },
        onNotification: { notification, context in
            // Each notification once: a redelivery (same jti) is answered 200 without calling this.
            for event in notification.events where event.type == .consentRevoked || event.type.isAccountDeletion {
                try await sessions.endAll(forSubject: event.subject)
            }
        }
    ).register(on: router)
    // GET /auth/apple (sets the apple_sign_in_browser cookie), POST /auth/apple/callback (303 to the completion),
    // GET /auth/apple/complete (calls onSignIn), POST /auth/apple/popup (Sign in with Apple JS's popup result,
    // calls onSignIn), POST /auth/apple/notifications
    return router
}

func hummingbirdScriptRoute(router: Router<BasicRequestContext>, siwa: SignInWithAppleClient) {
    router.post("/signin/apple/script") { request, context in
        try checkCSRF(request, context)
        let (script, cookie) = try await siwa.startScript(for: request)  // popup mode, en_US; a new binding
        // script.scriptURL (for the page): Apple's CDN, or the Apple ID server of the environment (the same path).
        var response = Response(status: .ok, headers: [.contentType: "application/json", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: script.initOptionsJSON)))  // the page: AppleID.auth.init(it); AppleID.auth.signIn()
        response.setCookie(cookie)
        return response
    }
}
