import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// The launch-time check of an app that asks for both providers, through the admin API: the
/// device's keychain, the App ID's `webcredentials` domains, and the sheet's answer.
@Suite("The native side, emulated: keychain passwords and the two-provider sheet")
struct NativeKeychainCredentialTests {
    static let admin = NativeCredentialTests.admin
    static let both = #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","providers":["apple-id","password"],"existing_only":true"#

    static func call(
        _ client: some TestClientProtocol, _ method: HTTPRequest.Method, _ uri: String, _ body: String? = nil
    ) async throws
        -> TestResponse
    {
        try await client.execute(uri: uri, method: method, headers: admin, body: body.map { ByteBuffer(string: $0) })
    }

    /// Associates the App ID with juice.example.com and saves two passwords there and one elsewhere.
    static func prepare(_ client: some TestClientProtocol) async throws {
        let associated = try await call(
            client, .put, "/admin/clients/com.example.juice/associated-domains", #"{"webcredentials":["webcredentials:juice.example.com"]}"#)
        #expect(associated.status == .noContent)
        for (user, domain) in [("maria", "juice.example.com"), ("maria.ruiz", "juice.example.com"), ("maria", "elsewhere.example.com")] {
            let saved = try await call(
                client, .post, "/admin/users/maria@example.com/keychain", #"{"user":"\#(user)","password":"pw-\#(user)","domain":"\#(domain)"}"#)
            #expect(saved.status == .created)
        }
    }

    static func offered(_ answer: [String: Any]) -> [String] {
        (answer["offered"] as? [[String: String]] ?? []).map { [$0["type"], $0["user"]].compactMap { $0 }.joined(separator: ":") }
    }

    @Test("a password for an associated domain before the Apple ID credential exists; the Apple ID credential first after it")
    func order() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            try await Self.prepare(client)
            let first = try await Self.call(client, .post, "/admin/native-credentials", Self.both + "}")
            #expect(first.status == .ok)
            let password = try AdminAccountTests.json(first)
            #expect(password["type"] as? String == "password")
            #expect(password["user"] as? String == "maria")
            #expect(password["password"] as? String == "pw-maria")
            #expect(Self.offered(password) == ["password:maria", "password:maria.ruiz"])

            _ = try await NativeCredentialTests.mint(client, #"{"bundle_id":"com.example.juice","apple_id":"maria@example.com","scope":"email"}"#)
            let later = try AdminAccountTests.json(try await Self.call(client, .post, "/admin/native-credentials", Self.both + "}"))
            #expect(later["type"] as? String == "apple-id")
            #expect(later["identityToken"] as? String != nil)
            #expect(Self.offered(later) == ["apple-id", "password:maria", "password:maria.ruiz"])

            let picked = try AdminAccountTests.json(
                try await Self.call(client, .post, "/admin/native-credentials", Self.both + #","pick":"password:maria.ruiz"}"#))
            #expect(picked["password"] as? String == "pw-maria.ruiz")
        }
    }

    @Test("nothing associated, a pick not offered, or a removed password: canceled (1001) with what the sheet offered")
    func canceled() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            try await Self.prepare(client)
            let noAppleID = try await Self.call(client, .post, "/admin/native-credentials", Self.both + #","pick":"apple-id"}"#)
            #expect(noAppleID.status == .notFound)
            let failure = try AdminAccountTests.json(noAppleID)
            #expect(failure["code"] as? Int == 1001)
            #expect(Self.offered(failure) == ["password:maria", "password:maria.ruiz"])

            for user in ["maria", "maria.ruiz"] {
                let removed = try await Self.call(client, .delete, "/admin/users/maria@example.com/keychain/juice.example.com/\(user)")
                #expect(removed.status == .noContent)
            }
            let again = try await Self.call(client, .delete, "/admin/users/maria@example.com/keychain/juice.example.com/maria")
            #expect(again.status == .notFound)
            let nothing = try await Self.call(client, .post, "/admin/native-credentials", Self.both + "}")
            #expect(nothing.status == .notFound)
            #expect(Self.offered(try AdminAccountTests.json(nothing)).isEmpty, "elsewhere.example.com is not associated")
        }
    }

    @Test("the keychain lists user names and domains, never passwords; a deleted Apple ID's keychain is gone")
    func listAndDelete() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            try await Self.prepare(client)
            let list = try await Self.call(client, .get, "/admin/users/maria@example.com/keychain")
            #expect(!String(buffer: list.body).contains("pw-"))
            let passwords = try #require(try AdminAccountTests.json(list)["passwords"] as? [[String: Any]])
            // Saved at one instant of the server's clock: by domain, then user name.
            #expect(passwords.compactMap { $0["domain"] as? String } == ["elsewhere.example.com", "juice.example.com", "juice.example.com"])
            let view = try AdminAccountTests.json(try await Self.call(client, .get, "/admin/clients/com.example.juice"))
            #expect(view["webcredentials_domains"] as? [String] == ["juice.example.com"])

            let bad = try await Self.call(
                client, .post, "/admin/users/maria@example.com/keychain", #"{"user":"x","password":"y","domain":"https://x.example"}"#)
            #expect(bad.status == .badRequest)

            #expect(try await Self.call(client, .delete, "/admin/users/maria@example.com").status == .noContent)
            #expect(try await Self.call(client, .get, "/admin/users/maria@example.com/keychain").status == .notFound)
            let account = try #require(try await server.provider.lookUpAccount(appleID: TestServer.maria.appleID))
            #expect(try await server.arrange.storedKeychainPasswords(accountID: account.id).isEmpty)
        }
    }
}
