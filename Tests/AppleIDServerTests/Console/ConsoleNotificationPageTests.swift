import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import AppleIDServerApp
import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import ServerTestSupport
import SignInWithApple
import Synchronization
import Testing

@Suite("Console page: Send test notification and the e-mail sources' SPF status", .timeLimit(.minutes(5)))
struct ConsoleNotificationPageTests {
    /// A notification endpoint on 127.0.0.1 that answers 503 once, then 200, and keeps the bodies.
    final class Receiver: Sendable {
        let received = Mutex<[[UInt8]]>([])

        func run<T: Sendable>(_ body: (Int) async throws -> T) async throws -> T {
            let router = Router()
            router.post("/apple/notifications") { request, _ -> Response in
                let bytes = Array(buffer: try await request.body.collect(upTo: 64 * 1024))
                let count = self.received.withLock {
                    $0.append(bytes)
                    return $0.count
                }
                return Response(status: count == 1 ? .serviceUnavailable : .ok)
            }
            return try await LoopbackServer.run(router, body)
        }
    }

    @Test("the button sends a signed test notification through the outbox; the log shows its status, latency and retry")
    func testNotification() async throws {
        let server = try await TestServer.make()
        try await ConsolePages.registerDeveloper(server)
        let receiver = Receiver()
        try await receiver.run { port in
            try await server.app.test(.router) { client in
                let browser = Browser(client)
                let csrf = try await ConsolePages.signIn(browser)
                let before = try await browser.get("/console/notifications")
                #expect(!before.text.contains("action=\"/console/notifications/test\""), "no endpoint, no button")
                let endpoint = "http://127.0.0.1:\(port)/apple/notifications"
                _ = try await browser.post(
                    "/console/notifications/endpoint", form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue), ("url", endpoint)])
                let sent = try await browser.post("/console/notifications/test", form: [("csrf", csrf), ("group_id", TestServer.bundleID.rawValue)])
                #expect(sent.status == .ok)
                #expect(sent.text.contains("A test notification for \(TestServer.bundleID.rawValue) is on its way"))
                #expect(sent.text.contains("<tr><td>test</td>"))
                #expect(sent.text.contains("<td>pending</td>"))

                let delivery = NotificationDelivery(provider: server.provider, sender: HTTPNotificationSender(), logger: Logger(label: "test"))
                #expect(try await delivery.deliverDueMessages() == 1)
                server.clock.advance(by: 3600)
                #expect(try await delivery.deliverDueMessages() == 1)

                let page = try await browser.get("/console/notifications")
                let row = try #require(page.text.firstMatch(of: #/<tr><td>test</td>.*?</tr>/#).map { String($0.0) })
                // Delivered after one retry: two attempts, the last answered 200, with its latency.
                #expect(row.contains("<td>delivered</td><td>2</td><td>1</td><td>200</td>"))
                #expect(row.contains(" ms</td>"))
                let forged = try await browser.post(
                    "/console/notifications/test", form: [("csrf", "wrong"), ("group_id", TestServer.bundleID.rawValue)])
                #expect(forged.status == .forbidden)
            }
        }
        let verifier = NotificationVerifier(
            environment: .custom(baseURL: TestServer.issuer), audiences: [TestServer.bundleID.rawValue],
            keys: AppleKeySet(jwksJSON: server.provider.keyRing.publishedKeySetJSON), clock: { server.clock.now() })
        let last = try #require(receiver.received.withLock { $0.last })
        let notification = try await verifier.verify(body: last)
        #expect(notification.events.map(\.type.rawValue) == ["test"])
        #expect(receiver.received.withLock { $0.count } == 2)
    }

    @Test("outside development mode the page refuses an IP endpoint with a clear message, and the test button stops at its rate limit")
    func endpointRuleAndTestLimit() async throws {
        let server = try await TestServer.make(endpointResolver: TestServer.publicJuice) { $0.developmentMode = false }
        try await ConsolePages.registerDeveloper(server)
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            let csrf = try await ConsolePages.signIn(browser)
            let group = TestServer.bundleID.rawValue
            let metadata = try await browser.post(
                "/console/notifications/endpoint", form: [("csrf", csrf), ("group_id", group), ("url", "https://169.254.169.254/latest")])
            #expect(metadata.status == .badRequest)
            #expect(metadata.text.contains("must be a host name, not an IP address"))
            let saved = try await browser.post(
                "/console/notifications/endpoint", form: [("csrf", csrf), ("group_id", group), ("url", TestServer.notificationEndpoint)])
            #expect(saved.status == .ok)
            for _ in 0..<5 {
                #expect(try await browser.post("/console/notifications/test", form: [("csrf", csrf), ("group_id", group)]).status == .ok)
            }
            let limited = try await browser.post("/console/notifications/test", form: [("csrf", csrf), ("group_id", group)])
            #expect(limited.status == .badRequest)
            #expect(limited.text.contains("at most 5 test notifications a minute"))
        }
    }

    @Test("each e-mail source shows its SPF status from DNS after Check again, through a resolver on 127.0.0.1")
    func emailSourceStatus() async throws {
        let responder = DNSResponder(table: [
            "mail.juice.example.com": .txt([["v=spf1 ip4:192.0.2.1 -all"]]),
            "juice.example.com": .txt([["no policy here"]]),
            "slow.example.com": .silence,
        ])
        let heard = HeardQuestions(silentName: "slow.example.com")
        try await responder.serve(heard: heard) { port in
            // The silent name times out once the responder has heard it, not after wall-clock seconds.
            let resolver = UDPTXTResolver(server: try ResolverAddress.parse("127.0.0.1:\(port)"), timeout: .seconds(2), waitOut: heard.waitOut)
            let server = try await TestServer.make(txtResolver: resolver)
            try await ConsolePages.registerDeveloper(server)
            try await server.app.test(.router) { client in
                let browser = Browser(client)
                let csrf = try await ConsolePages.signIn(browser)
                let added = try await browser.post(
                    "/console/email-sources",
                    form: [("csrf", csrf), ("sources", "mail.juice.example.com, hello@juice.example.com, gone.example.com, slow.example.com")])
                #expect(added.text.components(separatedBy: "Not checked yet").count == 5)
                let checked = try await browser.post("/console/email-sources/check", form: [("csrf", csrf)])
                #expect(checked.status == .ok)
                #expect(checked.text.contains("E-mail sources checked."))
                let statuses = checked.text.matches(of: #/<tr class="check-([a-z-]+)"><td><code>([^<]+)</code>/#).map { ($0.output.2, $0.output.1) }
                #expect(
                    statuses.map { "\($0.0)=\($0.1)" } == [
                        "mail.juice.example.com=verified", "hello@juice.example.com=spf-missing", "gone.example.com=spf-missing",
                        "slow.example.com=lookup-failed",
                    ])
                #expect(checked.text.contains("Verified (SPF record found)"))
                #expect(checked.text.contains("SPF record missing"))
                #expect(checked.text.contains("Lookup failed"))
                #expect(try await browser.post("/console/email-sources/check", form: [("csrf", "wrong")]).status == .forbidden)
            }
        }
    }
}
