import AppleIDProtocol
import Foundation
import SignInWithApple
import SignInWithAppleTesting
import SignInWithAppleVapor
import Synchronization
import Testing
import VaporTesting

@Suite("Vapor routes: start, form_post callback, notifications", .timeLimit(.minutes(5)))
struct VaporRoutesTests {
    static let formHeaders: HTTPHeaders = ["Content-Type": "application/x-www-form-urlencoded"]
    static let expiredMessage = "This sign-in has expired or was already completed. Please start again."
    static let cancelledMessage = "Sign in with Apple was cancelled."
    static let genericMessage = "Sign in with Apple did not complete. Please try again."
    static let otherBrowserMessage = "This sign-in was started in another browser. Please start again here."

    @Test("sign-in through the routes: a Lax cookie at the start, the callback parks, the completion in that browser signs in once")
    func signIn() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let signIns = Recorder<SignInResult>()
            let routes = SignInWithAppleRouteCollection(
                client: siwa,
                onSignIn: { result, _ in
                    signIns.append(result)
                    return Response(status: .ok, body: .init(string: "signed in as \(result.profile?.name?.firstName ?? "-")"))
                })
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let tester = try app.testing()
                let start = try await tester.sendRequest(.GET, "/auth/apple")
                #expect(start.status == .seeOther)
                #expect(start.headers.first(name: .cacheControl) == "no-store")
                let setCookie = try #require(start.headers.first(name: .setCookie))
                #expect(setCookie.hasPrefix(siwa.browserCookieName + "="))
                #expect(setCookie.contains("HttpOnly") && setCookie.contains("SameSite=Lax") && setCookie.contains("Path=/"))
                let cookie = try #require(setCookie.split(separator: ";").first.map(String.init))
                let location = try #require(start.headers.first(name: .location))
                #expect(location.hasPrefix(apple.baseURL + "/auth/authorize?"))
                #expect(location.contains("response_mode=form_post"))

                // Apple's form_post is cross-site: a SameSite=Lax cookie is not sent with it.
                let body = try await Self.callbackBody(location: location, apple: apple)
                let callback = try await tester.sendRequest(.POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: body))
                #expect(callback.status == .seeOther)
                #expect(signIns.values.isEmpty, "nothing signs in before the browser's own request")
                let completion = try #require(callback.headers.first(name: .location))
                #expect(completion.hasPrefix("/auth/apple/complete?token="))

                // The same-site navigation carries the cookie.
                let done = try await tester.sendRequest(.GET, completion, headers: ["Cookie": cookie])
                #expect(done.status == .ok)
                #expect(done.body.string == "signed in as Emma")
                let result = try #require(signIns.values.first)
                #expect(result.isFirstAuthorization)
                #expect(result.profile?.name == .init(firstName: "Emma", lastName: "Apple"))
                #expect(result.profile?.unsignedEmailDiffered == false)
                #expect(result.identity.email == apple.defaultUser.email)
                #expect(result.grant == AppleGrant(refreshToken: try #require(result.tokens.refreshToken), clientID: apple.servicesID))

                let again = try await tester.sendRequest(.GET, completion, headers: ["Cookie": cookie])
                #expect(again.status == .badRequest)
                #expect(again.body.string == Self.expiredMessage)
                let replay = try await tester.sendRequest(.POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: body))
                #expect(replay.status == .badRequest)
                #expect(replay.body.string == Self.expiredMessage)
                #expect(signIns.values.count == 1)
            }
        }
    }

    @Test("login CSRF: an attacker's own callback replayed in a victim's browser signs nobody in, and is revoked")
    func loginCSRF() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let (routes, signIns) = Self.recordingRoutes(siwa)
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let tester = try app.testing()
                // The attacker starts in their own browser and approves with their own Apple ID…
                let attacker = try await tester.sendRequest(.GET, "/auth/apple")
                let location = try #require(attacker.headers.first(name: .location))
                let body = try await Self.callbackBody(location: location, apple: apple)
                // …then makes the victim's browser post it (an auto-submitting form on another site).
                let victim = try await tester.sendRequest(.GET, "/auth/apple")
                let victimCookie = try #require(victim.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))
                let callback = try await tester.sendRequest(.POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: body))
                let completion = try #require(callback.headers.first(name: .location))
                for headers: HTTPHeaders in [["Cookie": victimCookie], [:]] {
                    let refused = try await tester.sendRequest(.GET, completion, headers: headers)
                    #expect(refused.status == .badRequest)
                    #expect(
                        [Self.otherBrowserMessage, Self.expiredMessage].contains(refused.body.string), "\(refused.body.string)")
                }
                #expect(signIns.values.isEmpty)
                // What the refused completion issued was revoked: the Apple ID's next sign-in is a
                // first authorization again (Apple shares the name only then).
                let next = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
                #expect(next.isFirstAuthorization)
            }
        }
    }

    @Test("with start: nil there is no GET that starts a sign-in; the app's own start (start(_:)) still completes")
    func withoutStartRoute() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let routes = SignInWithAppleRouteCollection(
                client: siwa, start: nil, onSignIn: { result, _ in Response(status: .ok, body: .init(string: result.identity.subject)) })
            try await withApp(
                configure: { app in
                    try app.register(collection: routes)
                    app.post("my", "start") { request in try await routes.start(request).response }
                }
            ) { app in
                let tester = try app.testing()
                let start = try await tester.sendRequest(.GET, "/auth/apple")
                #expect(start.status == .notFound)
                let mine = try await tester.sendRequest(.POST, "/my/start")
                #expect(mine.status == .seeOther)
                let cookie = try #require(mine.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))
                let body = try await Self.callbackBody(location: try #require(mine.headers.first(name: .location)), apple: apple)
                let callback = try await tester.sendRequest(.POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: body))
                let done = try await tester.sendRequest(.GET, try #require(callback.headers.first(name: .location)), headers: ["Cookie": cookie])
                #expect(done.status == .ok)
                #expect(!done.body.string.isEmpty)
            }
        }
    }

    @Test("a cancelled, malformed or failing callback gets a plain message that names no internals")
    func refusals() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let routes = SignInWithAppleRouteCollection(
                client: siwa, start: ["sign-in", "apple"],
                onSignIn: { _, _ in throw Abort(.internalServerError, reason: "database password is hunter2") })
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let tester = try app.testing()
                let start = try await tester.sendRequest(.GET, "/sign-in/apple")
                #expect(start.status == .seeOther)
                let location = try #require(start.headers.first(name: .location))
                let state = try #require(try Self.queryValue("state", in: location))

                let cancelled = try await tester.sendRequest(
                    .POST, "/auth/apple/callback", headers: Self.formHeaders,
                    body: ByteBuffer(string: "error=user_cancelled_authorize&state=\(state)"))
                #expect(cancelled.status == .badRequest)
                #expect(cancelled.body.string == Self.cancelledMessage)

                let otherError = try await tester.sendRequest(
                    .POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: "error=invalid_request&state=\(state)"))
                #expect(otherError.status == .badRequest)
                #expect(otherError.body.string == Self.genericMessage)

                for malformed in ["state=a&state=b", "state=%zz", "code=c&state=s&user=%7Bnot-json", ""] {
                    let response = try await tester.sendRequest(
                        .POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: malformed))
                    #expect(response.status == .badRequest)
                    #expect(
                        [Self.genericMessage, Self.expiredMessage].contains(response.body.string),
                        "\(malformed) got \(response.body.string)")
                }

                // The app's own handler failing is answered as a failed sign-in, not with its reason.
                let cookie = try #require(start.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))
                let body = try await Self.callbackBody(location: location, apple: apple)
                let parked = try await tester.sendRequest(.POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: body))
                let failed = try await tester.sendRequest(.GET, try #require(parked.headers.first(name: .location)), headers: ["Cookie": cookie])
                #expect(failed.status == .badRequest)
                #expect(failed.body.string == Self.genericMessage)
                #expect(!failed.body.string.contains("hunter2"))

                // Without onNotification there is no notification endpoint.
                let notification = try await tester.sendRequest(.POST, "/auth/apple/notifications", body: ByteBuffer(string: "{}"))
                #expect(notification.status == .notFound)
            }
        }
    }

    @Test("bodies are limited to 64 KiB: exactly the limit is read, one byte more is refused unread")
    func bodyLimit() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let failures = Recorder<String>()
            let routes = SignInWithAppleRouteCollection(
                client: siwa, onSignIn: { _, _ in Response(status: .ok) },
                onFailure: { error, request in
                    failures.append(String(describing: error))
                    return try await SignInWithAppleRouteCollection.plainFailure(error, request)
                },
                onNotification: { _, _ in Issue.record("an oversized notification reached the app") })
            #expect(routes.maximumBodySize == 64 * 1024)
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let tester = try app.testing()
                let atLimit = Self.padded("state=unknown&padding=", to: 64 * 1024)
                let accepted = try await tester.sendRequest(
                    .POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: atLimit))
                #expect(accepted.status == .badRequest)
                #expect(accepted.body.string == Self.expiredMessage)

                let overLimit = Self.padded("state=unknown&padding=", to: 64 * 1024 + 1)
                let refused = try await tester.sendRequest(
                    .POST, "/auth/apple/callback", headers: Self.formHeaders, body: ByteBuffer(string: overLimit))
                #expect(refused.status == .payloadTooLarge)
                #expect(refused.body.string == Self.genericMessage)
                #expect(failures.values.last?.contains("Payload Too Large") == true || failures.values.last?.contains("413") == true)

                let notification = try await tester.sendRequest(
                    .POST, "/auth/apple/notifications", headers: ["Content-Type": "application/json"],
                    body: ByteBuffer(string: Self.padded(#"{"payload":""#, to: 64 * 1024 + 1)))
                #expect(notification.status == .badRequest)
            }
        }
    }

    @Test("over a real socket: the streamed callback completes, and a chunked body past the limit is refused")
    func liveServer() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let (routes, signIns) = Self.recordingRoutes(siwa)
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                try await app.asyncBoot()
                try await app.server.start(address: .hostname("127.0.0.1", port: 0))
                do {
                    let port = try #require(app.http.server.shared.localAddress?.port)
                    let url = "http://127.0.0.1:\(port)/auth/apple/callback"
                    let start = try await app.testing().sendRequest(.GET, "/auth/apple")
                    let location = try #require(start.headers.first(name: .location))
                    let cookie = try #require(start.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))
                    let body = try await Self.callbackBody(location: location, apple: apple)

                    // A browser does follow the 303, but with the cookie: follow it by hand.
                    let http = HTTPClient(eventLoopGroupProvider: .singleton, configuration: .init(redirectConfiguration: .disallow))
                    defer { _ = http.shutdown() }
                    let request = try HTTPClient.Request(url: url, method: .POST, headers: Self.formHeaders, body: .string(body))
                    let callback = try await http.execute(request: request).get()
                    #expect(callback.status == .seeOther)
                    let completion = try #require(callback.headers.first(name: "Location"))
                    let finish = try HTTPClient.Request(url: "http://127.0.0.1:\(port)" + completion, method: .GET, headers: ["Cookie": cookie])
                    #expect(try await HTTPClient.shared.execute(request: finish).get().status == .ok)
                    #expect(signIns.values.first?.profile?.name?.firstName == "Emma")

                    // Chunked: no Content-Length to refuse up front, so the streaming collector must stop it.
                    let chunk = ByteBuffer(repeating: UInt8(ascii: "a"), count: 16 * 1024)
                    let chunked = try HTTPClient.Request(
                        url: url, method: .POST, headers: Self.formHeaders,
                        body: .stream(contentLength: nil) { writer in
                            var written = writer.write(.byteBuffer(ByteBuffer(string: "state=unknown&padding=")))
                            for _ in 0..<5 { written = written.flatMap { writer.write(.byteBuffer(chunk)) } }
                            return written
                        })
                    let refused = try await HTTPClient.shared.execute(request: chunked).get()
                    #expect(refused.status == .payloadTooLarge)
                    #expect(refused.body?.string == Self.genericMessage)
                    #expect(signIns.values.count == 1)
                } catch {
                    await app.server.shutdown()
                    throw error
                }
                await app.server.shutdown()
            }
        }
    }

    @Test("notifications: Apple's signed notification reaches the app; forged bodies are refused with 400")
    func notifications() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let received = Recorder<AppleNotification>()
            let routes = SignInWithAppleRouteCollection(
                client: siwa, onSignIn: { _, _ in Response(status: .ok) },
                onNotification: { notification, _ in received.append(notification) })
            try await withApp(configure: { try $0.register(collection: routes) }) { app in
                let tester = try app.testing()
                let json: HTTPHeaders = ["Content-Type": "application/json"]
                for forged in [#"{"payload":"a.b.c"}"#, "not json", #"{"payload":"eyJhbGciOiJub25lIn0.e30."}"#, ""] {
                    let response = try await tester.sendRequest(.POST, "/auth/apple/notifications", headers: json, body: ByteBuffer(string: forged))
                    #expect(response.status == .badRequest, "\(forged)")
                }
                #expect(received.values.isEmpty)

                // The user stops using the app: Apple signs and sends `consent-revoked`.
                let signedIn = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
                try await apple.stopUsing(appleID: apple.defaultUser.appleID)
                let delivered = try #require(try await apple.deliveredNotifications().first)
                let response = try await tester.sendRequest(
                    .POST, "/auth/apple/notifications", headers: json, body: ByteBuffer(bytes: delivered.body))
                #expect(response.status == .ok)
                let notification = try #require(received.values.first)
                #expect(notification.audience == apple.bundleID)
                #expect(notification.events.map(\.type) == [.consentRevoked])
                #expect(notification.events.first?.subject == signedIn.identity.subject)

                // Apple delivers again (or somebody replays it): 200, and the app is not called twice.
                let again = try await tester.sendRequest(.POST, "/auth/apple/notifications", headers: json, body: ByteBuffer(bytes: delivered.body))
                #expect(again.status == .ok)
                #expect(received.values.count == 1)
            }
        }
    }

    // MARK: - Helpers

    /// Routes whose `onSignIn` records each result and answers 200.
    static func recordingRoutes(_ siwa: SignInWithAppleClient) -> (SignInWithAppleRouteCollection, Recorder<SignInResult>) {
        let signIns = Recorder<SignInResult>()
        let routes = SignInWithAppleRouteCollection(
            client: siwa,
            onSignIn: { result, _ in
                signIns.append(result)
                return Response(status: .ok)
            })
        return (routes, signIns)
    }

    static func queryValue(_ name: String, in url: String) throws -> String? {
        try #require(URLComponents(string: url)?.queryItems).first { $0.name == name }?.value
    }

    /// What Apple's page would POST: the emulator approves the request the start route redirected to.
    static func callbackBody(location: String, apple: AppleIDEmulator) async throws -> String {
        #expect(location.contains("response_mode=form_post"))
        return try await apple.approve(authorizationURL: location, as: apple.defaultUser.appleID).formBody
    }

    static func padded(_ prefix: String, to size: Int) -> String {
        prefix + String(repeating: "a", count: size - prefix.utf8.count)
    }
}

/// Collects what the app's handlers were given.
final class Recorder<Value: Sendable>: Sendable {
    private let storage = Mutex<[Value]>([])
    var values: [Value] { storage.withLock { $0 } }
    func append(_ value: Value) { storage.withLock { $0.append(value) } }
}

@Suite("Vapor: a page with Sign in with Apple JS, and the popup route", .timeLimit(.minutes(5)))
struct VaporScriptSignInTests {
    @Test("each start sets a new binding cookie; the popup result signs in with it, and without it is refused")
    func popupRoute() async throws {
        try await withAppleIDEmulator { apple in
            let siwa = try apple.makeClient()
            let (routes, signIns) = VaporRoutesTests.recordingRoutes(siwa)
            try await withApp(
                configure: { app in
                    try app.register(collection: routes)
                    app.get("page") { request async throws -> Response in
                        let (script, cookie) = try await routes.startScript(request)
                        let response = Response(status: .ok, body: .init(string: script.initOptionsJSON))
                        response.cookies[siwa.browserCookieName] = cookie
                        return response
                    }
                }
            ) { app in
                let tester = try app.testing()
                func pageScript(cookie: String?) async throws -> (ScriptSignIn, cookie: String?) {
                    let page = try await tester.sendRequest(.GET, "/page", headers: cookie.map { ["Cookie": $0] } ?? [:])
                    let script = try ScriptSignIn(initOptionsJSON: page.body.string)
                    return (script, page.headers.first(name: .setCookie)?.split(separator: ";").first.map(String.init))
                }
                let (script, cookie) = try await pageScript(cookie: nil)
                let binding = try #require(cookie)
                #expect(binding.hasPrefix(siwa.browserCookieName + "="))
                #expect(script.usePopup)

                let body = try await apple.approve(script, as: apple.defaultUser.appleID).formBody
                var headers = VaporRoutesTests.formHeaders
                headers.add(name: "Cookie", value: binding)
                let done = try await tester.sendRequest(.POST, "/auth/apple/popup", headers: headers, body: ByteBuffer(string: body))
                #expect(done.status == .ok)
                #expect(signIns.values.first?.profile?.name?.firstName == "Emma")

                let (second, again) = try await pageScript(cookie: binding)
                #expect(again != nil && again != binding, "every start sets a new binding, never the one the browser brings")
                let other = try await apple.approve(second, as: apple.defaultUser.appleID).formBody
                let refused = try await tester.sendRequest(
                    .POST, "/auth/apple/popup", headers: VaporRoutesTests.formHeaders, body: ByteBuffer(string: other))
                #expect(refused.status == .badRequest)
                #expect(refused.body.string == VaporRoutesTests.otherBrowserMessage)
                #expect(signIns.values.count == 1)
            }
        }
    }
}
