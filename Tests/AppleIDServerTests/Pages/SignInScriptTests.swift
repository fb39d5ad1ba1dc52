import AppleIDButtons
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Sign in with Apple JS (spec §13)")
struct SignInScriptTests {
    static func path(_ locale: String) -> String { "/appleauth/static/jsapi/appleid/1/\(locale)/appleid.auth.js" }

    @Test("every locale of spec §14.2 has its script at Apple's path, with its own titles")
    func everyLocale() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            for locale in ButtonLocale.all {
                let response = try await client.execute(uri: Self.path(locale.rawValue), method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.eTag] != nil)
                let script = response.text
                #expect(script.contains(#""locale":"\#(locale.rawValue)""#))
                #expect(script.contains(locale.text(.continue)))
                #expect(!script.contains("/* SETTINGS */"))
            }
            let german = try await client.execute(uri: Self.path("de_DE"), method: .get).text
            #expect(german.contains(#""sign-in":"Mit Apple anmelden""#))
            #expect(german.contains("AppleIDSigInLoaded") && german.contains("renderButton"))
        }
    }

    @Test("an unknown locale is 404", arguments: ["en_XX", "EN_US", "en-US", "..", "ar_SA%2F.."])
    func unknownLocale(locale: String) async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let response = try await client.execute(uri: Self.path(locale), method: .get)
            #expect(response.status == .notFound)
        }
    }

    @Test("the script knows the server's URL and the same logo path as the images")
    func settings() async throws {
        let server = try await TestServer.make()
        try await server.app.test(.router) { client in
            let script = try await client.execute(uri: Self.path("en_US"), method: .get).text
            #expect(script.contains(#""serverURL":"http://127.0.0.1:8080""#))
            #expect(script.contains(AppleLogo.svgPath))
            #expect(script.contains(#""version":"1.5.6""#))
        }
    }
}
