// swift-format-ignore-file
// The examples are the documentation's text, verbatim: formatting them would part them from it.
import SQLKit
import SignInWithApple
import SignInWithAppleSQL
import SignInWithAppleVapor
import Vapor

// SignInWithAppleVapor.docc, verbatim, inside a function that declares what the example takes from
// the app around it.

func vaporRoutes(app: Vapor.Application, configuration: SignInWithAppleClient.Configuration) async throws {
    // Several instances: keep the sign-ins in flight in the app's database (SignInWithAppleSQL; its take is
    // atomic). CacheSignInWithAppleStorage on app.cache is atomic within one process only: Vapor's
    // in-memory cache is for one process; on a cache shared by instances see its documentation.
    let storage = SQLSignInWithAppleStorage(database: app.db as! any SQLDatabase)
    try await storage.migrate()
    let siwa = try SignInWithAppleClient(configuration: configuration, storage: storage)
    try app.register(collection: SignInWithAppleRouteCollection(
        client: siwa,
        onSignIn: { result, req in
            // Runs in GET /auth/apple/complete, in the browser that started the sign-in. Find the account
            // by result.identity.subject; on the first authorization create it with result.profile's name
            // (it never comes again) and result.identity.email; store result.grant.
            let account = try await Accounts(req.db).signIn(result)
            req.session.data["account"] = account.id
            return req.redirect(to: "/")
        },
        onNotification: { notification, req in
            for event in notification.events where event.type == .consentRevoked || event.type.isAccountDeletion {
                // A consent-revoked queued while the app was down must not end a sign-in made after it.
                try await Sessions(req.db).end(forSubject: event.subject, where: { event.appliesToSignIn(begunAt: $0.startedAt) })
            }
        }))
    // GET /auth/apple (sets a new apple_sign_in_browser cookie, __Host- on https), POST /auth/apple/callback (303 to the completion),
    // GET /auth/apple/complete (calls onSignIn), POST /auth/apple/notifications (each jti once)
}
