import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleTesting
import Testing

/// A test of an app's own Sign in with Apple routes in one call: the emulator plays the browser and
/// Apple, the app's routes run in Hummingbird's test client.
@Suite("Emulator: a sign-in through the app's own routes, cookies and all", .timeLimit(.minutes(5)))
struct EmulatorAppRoutesTests {
    /// An app whose sign-in answers "<sub> <first name>" and sets a session cookie.
    static func app(_ siwa: SignInWithAppleClient) -> some ApplicationProtocol {
        let router = Router()
        SignInWithAppleRoutes<BasicRequestContext>(
            client: siwa,
            onSignIn: { result, _, _ in
                var response = Response(
                    status: .ok,
                    body: .init(byteBuffer: ByteBuffer(string: "\(result.identity.subject) \(result.profile?.name?.firstName ?? "-")")))
                response.headers[.setCookie] = "session=s-\(result.identity.subject); Path=/; HttpOnly; SameSite=Lax"
                return response
            }
        ).register(on: router)
        router.get("/me") { request, _ in request.headers[.cookie] ?? "no cookie" }
        return Application(router: router)
    }

    @Test("one call: the app's start, Apple, the cross-site callback and the completion in the same browser")
    func signInThroughRoutes() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            try await Self.app(siwa).test(.router) { client in
                let first = try await apple.signIn(through: client, as: apple.defaultUser.appleID)
                #expect(first.response.status == 200)
                #expect(first.response.text.hasSuffix(" Emma"), "the first authorization's name reached the app")
                #expect(first.callback.user != nil)
                let session = try #require(first.cookies["session"])
                #expect(session.hasPrefix("s-"))
                // The session cookie carries on to the test's next request.
                let me = try await client.execute(uri: "/me", method: .get, headers: [.cookie: first.cookieHeader])
                #expect(String(buffer: me.body).contains("session=\(session)"))

                let again = try await apple.signIn(through: client, as: apple.defaultUser.appleID)
                #expect(again.response.status == 200)
                #expect(again.callback.user == nil, "the user JSON comes on the first authorization only")
                #expect(again.response.text.hasSuffix(" -"))
            }
        }
    }

    @Test("the app's own Return URL is refused until it is added to the Services ID")
    func ownReturnURL() async throws {
        try await withAppleIDEmulator { apple in
            var configuration = apple.clientConfiguration()
            configuration.web = .init(servicesID: apple.servicesID, redirectURI: "http://127.0.0.1:8081/auth/apple/callback")
            let clock = apple.clock
            let siwa = try SignInWithAppleClient(configuration: configuration, clock: { clock.now() })
            try await Self.app(siwa).test(.router) { client in
                await #expect(throws: AppleIDEmulator.EmulatorError.self) {
                    try await apple.signIn(through: client, as: apple.defaultUser.appleID)
                }
                try await apple.addReturnURL("http://127.0.0.1:8081/auth/apple/callback")
                let signIn = try await apple.signIn(through: client, as: apple.defaultUser.appleID)
                #expect(signIn.response.status == 200)
                #expect(signIn.response.text.hasSuffix(" Emma"))
            }
        }
    }

    @Test("a start that does not redirect to the emulator is named, with what the app answered")
    func startWithoutRedirect() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            try await Self.app(siwa).test(.router) { client in
                await #expect(throws: AppleIDEmulator.EmulatorError.appDidNotRedirectToAuthorization(status: 200, location: nil)) {
                    try await apple.signIn(through: client, start: "/me", as: apple.defaultUser.appleID)
                }
            }
        }
    }

    @Test("mail from a registered source reaches the mailbox; an unregistered sender is refused with the relay's reply")
    func sendMail() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let hidden = ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true)
            let relayAddress = try #require(try await apple.signIn(as: apple.defaultUser.appleID, with: siwa, choices: hidden).identity.email)
            do {
                try await apple.sendMail(from: "orders@shop.example", to: [relayAddress], subject: "Your order", text: "Thank you!")
                Issue.record("an unregistered sender was accepted")
            } catch AppleIDEmulator.EmulatorError.mailRefused(let code, _) {
                #expect((500..<600).contains(code))
            }
            try await apple.addEmailSource("shop.example")
            try await apple.sendMail(from: "orders@shop.example", to: [relayAddress], subject: "Your order", text: "Thank you!\nEmma")
            let mail = try #require(try await apple.mailbox(for: apple.defaultUser.appleID).first)
            #expect(mail.subject == "Your order")
            #expect(mail.text == "Thank you!\r\nEmma\r\n")
        }
    }
}
