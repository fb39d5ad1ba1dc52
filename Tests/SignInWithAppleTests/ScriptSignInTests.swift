import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird
import HummingbirdTesting
import SignInWithApple
import SignInWithAppleHummingbird
import SignInWithAppleTesting
import Testing

/// Issue 11: a sign-in run by Sign in with Apple JS in the app's page (popup or redirect), completed
/// by the kit with the rules of every web sign-in.
@Suite("Kit: sign-ins run by Sign in with Apple JS", .timeLimit(.minutes(5)))
struct ScriptSignInTests {
    @Test("the popup's authorization completes in the browser that started it, with the name; once")
    func popupCompletes() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let browser = BrowserBinding.random()
            let script = try await siwa.startScriptSignIn(browser: browser)
            #expect(script.usePopup)
            #expect(script.clientID == apple.servicesID)
            #expect(script.scope == "name email")
            #expect(script.scriptURL == apple.baseURL + "/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js")

            let choices = ConsentChoices(firstName: "Emma", lastName: "A.", hideEmail: false)
            let authorization = try await apple.approve(
                script, as: apple.defaultUser.appleID, choices: choices)
            let result = try await siwa.completeSignIn(authorization, browser: browser)
            #expect(result.isFirstAuthorization)
            #expect(result.profile?.name == .init(firstName: "Emma", lastName: "A."))
            #expect(result.identity.audience == apple.servicesID)
            #expect(result.state == script.state)
            await #expect(throws: CallbackError.unknownState) { try await siwa.completeSignIn(authorization, browser: browser) }
        }
    }

    @Test("another browser's popup result is refused and revoked: the next sign-in is a first authorization again")
    func otherBrowserRevokes() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let script = try await siwa.startScriptSignIn(browser: .random())
            let authorization = try await apple.approve(
                script, as: apple.defaultUser.appleID)
            #expect(authorization.user != nil)
            await #expect(throws: CallbackError.otherBrowser) { try await siwa.completeSignIn(authorization, browser: .random()) }

            let again = try await siwa.startScriptSignIn(browser: .random())
            let retry = try await apple.approve(
                again, as: apple.defaultUser.appleID)
            #expect(retry.user?.name?.firstName == apple.defaultUser.firstName)

            // No binding at all (a cross-site post, cookies blocked): refused and revoked the same way.
            await #expect(throws: CallbackError.otherBrowser) { try await siwa.completeSignIn(retry, browser: nil) }
            let third = try await siwa.startScriptSignIn(browser: .random())
            let last = try await apple.approve(
                third, as: apple.defaultUser.appleID)
            #expect(last.user?.name?.firstName == apple.defaultUser.firstName)
        }
    }

    @Test("redirect mode: the script's form_post reaches the callback and finishes as any web sign-in")
    func redirectMode() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let browser = BrowserBinding.random()
            let script = try await siwa.startScriptSignIn(usePopup: false, browser: browser)
            let callback = try await apple.approve(
                script, as: apple.defaultUser.appleID)
            let token = try await siwa.acceptCallback(callback)
            #expect(try await siwa.finishSignIn(completionToken: token, browser: browser).isFirstAuthorization)
        }
    }

    @Test("init's options are JSON that cannot close the <script> element they are written into")
    func initOptionsAreSafeInScript() throws {
        let script = ScriptSignIn(
            clientID: "com.example.web", scope: "name email", redirectURI: "https://example.com/cb?a=1&b=</script><script>alert(1)",
            state: "s\"t\\ate", nonce: "n\u{2028}", usePopup: true, scriptURL: "")
        let json = script.initOptionsJSON
        #expect(!json.contains("<") && !json.contains(">") && !json.contains("&") && !json.contains("\u{2028}"))
        let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
        #expect(decoded?["redirectURI"] as? String == script.redirectURI)
        #expect(decoded?["state"] as? String == "s\"t\\ate")
        #expect(decoded?["nonce"] as? String == "n\u{2028}")
        #expect(decoded?["usePopup"] as? Bool == true)
        #expect(decoded?["clientId"] as? String == "com.example.web")
    }

    @Test("the script comes from Apple's CDN for Apple, and from the server itself for any other")
    func scriptURLs() {
        #expect(
            AppleEnvironment.production.scriptURL(locale: "cs_CZ")
                == "https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/cs_CZ/appleid.auth.js")
        #expect(
            AppleEnvironment.custom(baseURL: "http://127.0.0.1:8080/").scriptURL()
                == "http://127.0.0.1:8080/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js")
    }
}

@Suite("Hummingbird: a page with Sign in with Apple JS, and the popup route", .timeLimit(.minutes(5)))
struct HummingbirdScriptSignInTests {
    @Test("each start sets a new binding cookie; the popup route signs in with it, once, and refuses a post without it")
    func popupRoute() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let router = Router()
            router.get("/page") { request, _ in
                let (script, cookie) = try await siwa.startScript(for: request)
                var response = Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: script.initOptionsJSON)))
                response.setCookie(cookie)
                return response
            }
            SignInWithAppleRoutes<BasicRequestContext>(
                client: siwa,
                onSignIn: { result, _, _ in
                    Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: result.profile?.name?.firstName ?? "-")))
                }
            ).register(on: router)
            try await Application(router: router).test(.router) { client in
                let page = try await client.execute(uri: "/page", method: .get)
                let (cookie, attributes) = try HummingbirdRoutesTests.bindingCookie(page)
                #expect(attributes.contains("HttpOnly") && attributes.contains("SameSite=Lax"))
                let script = try ScriptSignIn(initOptionsJSON: String(buffer: page.body))
                #expect(script.usePopup)
                var withCookie = HummingbirdRoutesTests.form
                withCookie[.cookie] = cookie

                let body = try await apple.approve(script, as: apple.defaultUser.appleID).formBody
                let done = try await client.execute(uri: "/auth/apple/popup", method: .post, headers: withCookie, body: ByteBuffer(string: body))
                #expect(done.status == .ok)
                #expect(String(buffer: done.body) == apple.defaultUser.firstName)

                // The same browser's second start gets a binding of its own, never the one it brings.
                let second = try await client.execute(uri: "/page", method: .get, headers: [.cookie: cookie])
                let (secondCookie, _) = try HummingbirdRoutesTests.bindingCookie(second)
                #expect(secondCookie != cookie)
                let other = try await apple.approve(try ScriptSignIn(initOptionsJSON: String(buffer: second.body)), as: apple.defaultUser.appleID)
                let withoutCookie = try await client.execute(
                    uri: "/auth/apple/popup", method: .post, headers: HummingbirdRoutesTests.form, body: ByteBuffer(string: other.formBody))
                #expect(withoutCookie.status == .badRequest)
                #expect(String(buffer: withoutCookie.body) == "This sign-in was started in another browser. Please start again here.")
                // The refused post used the state up: the same authorization, even with its cookie, is refused.
                var withSecondCookie = HummingbirdRoutesTests.form
                withSecondCookie[.cookie] = secondCookie
                let late = try await client.execute(
                    uri: "/auth/apple/popup", method: .post, headers: withSecondCookie, body: ByteBuffer(string: other.formBody))
                #expect(String(buffer: late.body) == "This sign-in has expired or was already completed. Please start again.")
            }
        }
    }
}
