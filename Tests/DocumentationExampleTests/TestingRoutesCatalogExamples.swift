// swift-format-ignore-file
// The examples are the documentation's text, verbatim: formatting them would part them from it.
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleTesting
import Testing

// SignInWithAppleTesting.docc/TestingYourAppsRoutes.md, verbatim: both examples run against the emulator.

@Test func signInThroughTheAppsRoutes() async throws {
    try await withAppleIDEmulator { apple in
        let router = Router()
        SignInWithAppleRoutes<BasicRequestContext>(
            client: try apple.makeClient(),
            onSignIn: { result, _, _ in
                var response = Response(status: .seeOther, headers: [.location: "/welcome"])
                response.headers[.setCookie] = "session=\(result.identity.subject); Path=/; HttpOnly; SameSite=Lax"
                return response
            }
        ).register(on: router)
        router.get("/welcome") { request, _ in request.headers[.cookie]?.contains("session=") == true ? "Welcome" : "Who are you?" }

        try await Application(router: router).test(.router) { client in
            let signIn = try await apple.signIn(through: client, as: apple.defaultUser.appleID)
            #expect(signIn.response.text == "Welcome")
            #expect(signIn.cookies["session"] != nil)
        }
    }
}

@Test func orderConfirmation() async throws {
    try await withAppleIDEmulator { apple in
        let result = try await apple.signIn(
            as: apple.defaultUser.appleID, with: try apple.makeClient(),
            choices: ConsentChoices(firstName: "Emma", lastName: "Apple", hideEmail: true))
        let relayAddress = try #require(result.identity.email)
        try await apple.addEmailSource("shop.example")
        try await apple.sendMail(from: "orders@shop.example", to: [relayAddress], subject: "Your order", text: "Thank you!")
        #expect(try await apple.mailbox(for: relayAddress).first?.subject == "Your order")
    }
}
