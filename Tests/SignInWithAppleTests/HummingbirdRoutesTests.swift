import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleTesting
import Testing

@Suite("Hummingbird routes: start, form_post callback, notifications", .timeLimit(.minutes(2)))
struct HummingbirdRoutesTests {
    /// What Apple's page would POST: the emulator approves the request the start route redirected to.
    static func callbackBody(location: String, apple: AppleIDEmulator) async throws -> String {
        try await apple.approve(authorizationURL: location, as: apple.defaultUser.appleID).formBody
    }

    @Test("sign-in through the routes hands the app a verified identity and the first-authorization name")
    func signIn() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
            let router = Router()
            SignInWithAppleRoutes<BasicRequestContext>(
                client: siwa,
                onSignIn: { result, _, _ in
                    Response(
                        status: .ok,
                        body: .init(byteBuffer: ByteBuffer(string: "\(result.identity.subject) \(result.user?.name?.firstName ?? "-")")))
                }
            ).register(on: router)
            let app = Application(router: router)
            try await app.test(.router) { client in
                let start = try await client.execute(uri: "/auth/apple", method: .get)
                #expect(start.status == .seeOther)
                let location = try #require(start.headers[.location])
                #expect(location.hasPrefix(apple.baseURL + "/auth/authorize?"))

                let body = try await Self.callbackBody(location: location, apple: apple)
                let headers: HTTPFields = [.contentType: "application/x-www-form-urlencoded"]
                let callback = try await client.execute(uri: "/auth/apple/callback", method: .post, headers: headers, body: ByteBuffer(string: body))
                #expect(callback.status == .ok)
                let text = String(buffer: callback.body)
                #expect(text.hasSuffix(" Emma"))

                let replay = try await client.execute(uri: "/auth/apple/callback", method: .post, headers: headers, body: ByteBuffer(string: body))
                #expect(replay.status == .badRequest)
                #expect(String(buffer: replay.body) == "This sign-in has expired or was already completed. Please start again.")

                let cancelled = try await client.execute(
                    uri: "/auth/apple/callback", method: .post, headers: headers,
                    body: ByteBuffer(string: "error=user_cancelled_authorize&state=whatever"))
                #expect(String(buffer: cancelled.body) == "Sign in with Apple was cancelled.")
            }
        }
    }

    @Test("with start: nil there is no GET start route; the callback is still there")
    func withoutStartRoute() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
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
            let siwa = try SignInWithAppleClient(configuration: apple.clientConfiguration())
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
