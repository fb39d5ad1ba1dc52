import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("The native side, emulated: passkey account creation (iOS 26) over the admin API")
struct NativePasskeyAccountCreationTests {
    static let passkey = #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","providers":["passkey-account-creation"]}"#

    @Test("declined with notHandled (404) before the first Sign in with Apple, preferSignInWithApple (409, 1009) after it")
    func preferSignInWithApple() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let before = try await NativeCredentialTests.mint(client, Self.passkey)
            #expect(before.status == .notFound)
            let beforeBody = try AdminAccountTests.json(before)
            #expect(beforeBody["error"] as? String == "ASAuthorizationError.notHandled")
            #expect(beforeBody["code"] as? Int == 1003)

            let signIn = try await NativeCredentialTests.mint(
                client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"email"}"#)
            #expect(signIn.status == .ok)

            let after = try await NativeCredentialTests.mint(client, Self.passkey)
            #expect(after.status == .conflict)
            let body = try AdminAccountTests.json(after)
            #expect(body["error"] as? String == "ASAuthorizationError.preferSignInWithApple")
            #expect(body["code"] as? Int == 1009)
            #expect((body["offered"] as? [[String: Any]])?.compactMap { $0["type"] as? String } == ["apple-id"])
        }
    }

    @Test("an unknown provider name lists the three the server knows")
    func unknownProvider() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let answer = try await NativeCredentialTests.mint(
                client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","providers":["passkey"]}"#)
            #expect(answer.status == .badRequest)
            #expect(String(buffer: answer.body).contains("passkey-account-creation"))
        }
    }
}
