import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleTesting
import Synchronization
import Testing

@Suite("Hummingbird routes: start, form_post callback, notifications", .timeLimit(.minutes(5)))
struct HummingbirdRoutesTests {
    /// What Apple's page would POST: the emulator approves the request the start route redirected to.
    static func callbackBody(location: String, apple: AppleIDEmulator) async throws -> String {
        try await apple.approve(authorizationURL: location, as: apple.defaultUser.appleID).formBody
    }

    static let form: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]

    /// The `name=value` of the browser-binding cookie a response sets, and its attributes.
    static func bindingCookie(_ response: TestResponse) throws -> (cookie: String, attributes: String) {
        let header = try #require(response.headers[.setCookie])
        // `__Host-` when the redirect URI is https, as the emulator's is.
        #expect(header.hasPrefix(BrowserBinding.cookieName + "=") || header.hasPrefix("__Host-" + BrowserBinding.cookieName + "="))
        return (try #require(header.split(separator: ";").first.map(String.init)), header)
    }

    @Test("sign-in: a Lax cookie at the start, the cookieless callback parks, the completion in that browser signs in once")
    func signIn() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let router = Router()
            SignInWithAppleRoutes<BasicRequestContext>(
                client: siwa,
                onSignIn: { result, _, _ in
                    Response(
                        status: .ok,
                        body: .init(byteBuffer: ByteBuffer(string: "\(result.identity.subject) \(result.profile?.name?.firstName ?? "-")")))
                }
            ).register(on: router)
            try await Application(router: router).test(.router) { client in
                let start = try await client.execute(uri: "/auth/apple", method: .get)
                #expect(start.status == .seeOther)
                let (cookie, attributes) = try Self.bindingCookie(start)
                #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax") && attributes.contains("Path=/"))
                let location = try #require(start.headers[.location])
                #expect(location.hasPrefix(apple.baseURL + "/auth/authorize?"))

                // Apple's form_post is cross-site: the SameSite=Lax cookie does not come with it.
                let body = try await Self.callbackBody(location: location, apple: apple)
                let callback = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: Self.form, body: ByteBuffer(string: body))
                #expect(callback.status == .seeOther)
                let completion = try #require(callback.headers[.location])
                #expect(completion.hasPrefix("/auth/apple/complete?token="))

                let done = try await client.execute(uri: completion, method: .get, headers: [.cookie: cookie])
                #expect(done.status == .ok)
                #expect(String(buffer: done.body).hasSuffix(" Emma"))

                let again = try await client.execute(uri: completion, method: .get, headers: [.cookie: cookie])
                #expect(String(buffer: again.body) == "This sign-in has expired or was already completed. Please start again.")
                let replay = try await client.execute(uri: "/auth/apple/callback", method: .post, headers: Self.form, body: ByteBuffer(string: body))
                #expect(replay.status == .badRequest)
                #expect(String(buffer: replay.body) == "This sign-in has expired or was already completed. Please start again.")

                let cancelled = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: Self.form,
                    body: ByteBuffer(string: "error=user_cancelled_authorize&state=whatever"))
                #expect(String(buffer: cancelled.body) == "Sign in with Apple was cancelled.")
            }
        }
    }

    @Test("login CSRF: an attacker's callback replayed in the victim's browser signs nobody in and is revoked")
    func loginCSRF() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let signIns = Counter()
            let router = Router()
            SignInWithAppleRoutes<BasicRequestContext>(
                client: siwa,
                onSignIn: { _, _, _ in
                    signIns.increment()
                    return Response(status: .ok)
                }
            ).register(on: router)
            try await Application(router: router).test(.router) { client in
                let attacker = try await client.execute(uri: "/auth/apple", method: .get)
                let body = try await Self.callbackBody(location: try #require(attacker.headers[.location]), apple: apple)
                let victim = try Self.bindingCookie(try await client.execute(uri: "/auth/apple", method: .get)).cookie
                let callback = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: Self.form, body: ByteBuffer(string: body))
                let completion = try #require(callback.headers[.location])
                let refused = try await client.execute(uri: completion, method: .get, headers: [.cookie: victim])
                #expect(refused.status == .badRequest)
                #expect(String(buffer: refused.body) == "This sign-in was started in another browser. Please start again here.")
                #expect(signIns.value == 0)
                // Revoked: the attacker's Apple ID is asked for consent again, as on a first authorization.
                #expect(try await apple.signIn(as: apple.defaultUser.appleID, with: siwa).isFirstAuthorization)
            }
        }
    }

    @Test("notifications from the emulator reach the app once; a redelivery is answered 200 without calling it again")
    func notificationOnce() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            _ = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
            let received = Counter()
            let router = Router()
            SignInWithAppleRoutes<BasicRequestContext>(
                client: siwa, onSignIn: { _, _, _ in Response(status: .ok) }, onNotification: { _, _ in received.increment() }
            ).register(on: router)
            try await apple.stopUsing(appleID: apple.defaultUser.appleID)
            let delivered = try #require(try await apple.deliveredNotifications().first)
            #expect(delivered.type == "consent-revoked")
            try await Application(router: router).test(.router) { client in
                for _ in 0..<2 {
                    let response = try await client.execute(
                        uri: "/auth/apple/notifications", method: .post, headers: [.contentType: "application/json"],
                        body: ByteBuffer(bytes: delivered.body))
                    #expect(response.status == .ok)
                }
                #expect(received.value == 1)
            }
        }
    }

    @Test("with start: nil there is no GET start route; the callback is still there")
    func withoutStartRoute() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let router = Router()
            SignInWithAppleRoutes<BasicRequestContext>(client: siwa, onSignIn: { _, _, _ in Response(status: .ok) })
                .register(on: router, start: nil)
            try await Application(router: router).test(.router) { client in
                #expect(try await client.execute(uri: "/auth/apple", method: .get).status == .notFound)
                let callback = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: [.contentType: "application/x-www-form-urlencoded"],
                    body: ByteBuffer(string: "error=user_cancelled_authorize&state=whatever"))
                #expect(String(buffer: callback.body) == "Sign in with Apple was cancelled.")
            }
        }
    }

    @Test("notifications: a forged body is refused with 400 and never reaches the app")
    func notifications() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let router = Router()
            SignInWithAppleRoutes<BasicRequestContext>(
                client: siwa, onSignIn: { _, _, _ in Response(status: .ok) },
                onNotification: { _, _ in Issue.record("a forged notification reached the app") }
            ).register(on: router)
            try await Application(router: router).test(.router) { client in
                for body in [#"{"payload":"a.b.c"}"#, "not json", #"{"payload":"eyJhbGciOiJub25lIn0.e30."}"#] {
                    let response = try await client.execute(
                        uri: "/auth/apple/notifications", method: .post, headers: [.contentType: "application/json"],
                        body: ByteBuffer(string: body))
                    #expect(response.status == .badRequest)
                }
            }
        }
    }
}

/// Counts calls from concurrent handlers.
final class Counter: Sendable {
    private let count = Mutex(0)
    var value: Int { count.withLock { $0 } }
    func increment() { count.withLock { $0 += 1 } }
}
