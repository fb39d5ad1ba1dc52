import AppleIDEmailSources
import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("/account/mail: the Apple ID's mailbox of relayed mail")
struct AccountMailPagesTests {
    /// Maria hid her e-mail from Juice's team, which registered `example.com` as an e-mail source.
    static func mailServer() async throws -> (TestServer, relay: String) {
        let (server, _, relay) = try await TestServer.authorized()
        _ = try await server.provider.addEmailSources("example.com", teamID: TestServer.teamID)
        return (server, relay)
    }

    static func send(_ server: TestServer, to relay: String, subject: String, body: String, html: Bool = false) async throws -> String {
        let type = html ? "text/html; charset=utf-8" : "text/plain; charset=utf-8"
        let source = "From: \"Juice\" <orders@example.com>\r\nTo: <\(relay)>\r\nSubject: \(subject)\r\nContent-Type: \(type)\r\n\r\n\(body)\r\n"
        let reply = try await server.relay.accept(sender: "orders@example.com", recipients: [relay], source: Array(source.utf8))
        #expect(reply.code == 250)
        return try #require(reply.lines.first?.split(separator: " ").last.map(String.init))
    }

    static func signedIn(_ client: any TestClientProtocol) async throws -> Browser {
        let browser = Browser(client)
        let codeStep = try await AccountPages.signIn(browser)
        _ = try await AccountPages.verify(browser, codePage: codeStep, code: try #require(HTML.element(id: "development-code", in: codeStep.text)))
        return browser
    }

    @Test("the inbox lists forwarded mail newest first, with the rewritten sender, subject and time")
    func inboxLists() async throws {
        let (server, relay) = try await Self.mailServer()
        _ = try await Self.send(server, to: relay, subject: "First order", body: "one")
        server.clock.advance(by: 60)
        _ = try await Self.send(server, to: relay, subject: "Second order", body: "two")
        try await server.app.test(.router) { client in
            let browser = try await Self.signedIn(client)
            let page = try await browser.get("/account/mail")
            #expect(page.status == .ok)
            let first = try #require(page.text.range(of: "First order"))
            let second = try #require(page.text.range(of: "Second order"))
            #expect(second.lowerBound < first.lowerBound, "newest first")
            #expect(page.text.contains("orders_at_example_com_"), "the sender as rewritten")
            #expect(!page.text.contains("orders@example.com"), "not the original sender")
        }
    }

    @Test("the time reads as a date and a time in UTC, to the minute, with the exact moment for machines; the poll gives both")
    func receivedTime() async throws {
        let (server, relay) = try await Self.mailServer()
        let id = try await Self.send(server, to: relay, subject: "Timed", body: "t")
        let now = server.clock.now()
        let utc = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: now)
        let shown = String(format: "%04d-%02d-%02d %02d:%02d UTC", utc.year!, utc.month!, utc.day!, utc.hour!, utc.minute!)
        let exact = ISO8601DateFormatter().string(from: now)
        try await server.app.test(.router) { client in
            let browser = try await Self.signedIn(client)
            for path in ["/account/mail", "/account/mail/\(id)"] {
                let page = try await browser.get(path)
                #expect(page.text.contains("<time datetime=\"\(exact)\">\(shown)</time>"), "\(path)")
            }
            let poll = try await browser.get("/account/mail/messages.json")
            let list = try JSONSerialization.jsonObject(with: Data(poll.text.utf8)) as? [String: [[String: String]]]
            let message = try #require(list?["messages"]?.first)
            #expect(message["received_at"] == exact)
            #expect(message["received"] == shown)
        }
    }

    @Test("without the account sign-in the mailbox, a message, its body and its source show the sign-in page, never the mail")
    func signInRequired() async throws {
        let (server, relay) = try await Self.mailServer()
        let id = try await Self.send(server, to: relay, subject: "Private", body: "secret words")
        try await server.app.test(.router) { client in
            let browser = Browser(client)
            for path in ["/account/mail", "/account/mail/\(id)", "/account/mail/\(id)/body", "/account/mail/\(id)/raw"] {
                let page = try await browser.get(path)
                #expect(!page.text.contains("secret words"), "\(path)")
                #expect(!page.text.contains("Private"), "\(path)")
            }
            let poll = try await browser.get("/account/mail/messages.json")
            #expect(poll.status == .unauthorized)
        }
    }

    @Test("another Apple ID's message is 404, in every form")
    func otherUsersMessage() async throws {
        let (server, relay) = try await Self.mailServer()
        let id = try await Self.send(server, to: relay, subject: "For Maria", body: "hers")
        let robinCode = try await server.provider.authorizeHeadless(
            AuthorizationRequest(
                clientID: TestServer.servicesID.rawValue, redirectURI: TestServer.redirectURI, responseType: "code", responseMode: "form_post",
                scope: "name email"),
            appleID: "robin@example.com", choices: ConsentChoices(firstName: "Robin", lastName: "U", hideEmail: true))
        guard case .answered = robinCode else {
            Issue.record("Robin could not authorize")
            return
        }
        try await server.app.test(.router) { client in
            let robin = Browser(client)
            let codeStep = try await AccountPages.signIn(robin, appleID: "robin@example.com", password: "robin's password")
            if codeStep.status != .seeOther {
                _ = try await AccountPages.verify(
                    robin, codePage: codeStep, code: try #require(HTML.element(id: "development-code", in: codeStep.text)))
            }
            #expect(try await robin.get("/account/mail").status == .ok)
            #expect(!(try await robin.get("/account/mail").text.contains("For Maria")))
            for path in ["/account/mail/\(id)", "/account/mail/\(id)/body", "/account/mail/\(id)/raw", "/account/mail/no-such-id"] {
                let page = try await robin.get(path)
                #expect(page.status == .notFound, "\(path)")
                #expect(!page.text.contains("hers"), "\(path)")
            }
        }
    }

    @Test("a hostile subject is escaped; an HTML body is served alone, sandboxed, with remote images and scripts blocked")
    func hostileMail() async throws {
        let (server, relay) = try await Self.mailServer()
        let subject = "<script>alert(1)</script>\"><img src=x onerror=alert(2)>"
        let body = "<p>Hi</p><img src=\"https://tracker.example/pixel.gif\"><script>parent.document.title='owned'</script>"
        let id = try await Self.send(server, to: relay, subject: subject, body: body, html: true)
        try await server.app.test(.router) { client in
            let browser = try await Self.signedIn(client)
            for path in ["/account/mail", "/account/mail/\(id)"] {
                let page = try await browser.get(path)
                #expect(!page.text.contains("<script>alert(1)"), "\(path)")
                #expect(!page.text.contains("<img src=x"), "\(path)")
                #expect(page.text.contains("&lt;script&gt;alert(1)&lt;/script&gt;"), "\(path)")
            }
            let message = try await browser.get("/account/mail/\(id)")
            #expect(!message.text.contains("tracker.example"), "the HTML body is not inlined in the page")
            let frame = try #require(message.text.firstMatch(of: #/<iframe[^>]*>/#).map { String($0.output) })
            #expect(frame.contains("sandbox=\"\""), "sandboxed, scripts not allowed")
            #expect(!frame.contains("allow-scripts") && !frame.contains("allow-same-origin"))
            #expect(frame.contains("src=\"/account/mail/\(id)/body\""))

            let html = try await browser.get("/account/mail/\(id)/body")
            #expect(html.status == .ok)
            #expect(html.headers[.contentType] == "text/html; charset=utf-8")
            let policy = try #require(html.headers[.contentSecurityPolicy])
            #expect(policy.contains("default-src 'none'"))
            #expect(policy.contains("img-src data: cid:"))
            #expect(policy.contains("sandbox"))
            #expect(!policy.contains("script-src"), "no script source is allowed: default-src 'none' covers scripts")
            #expect(html.text.contains("<p>Hi</p>"))

            let raw = try await browser.get("/account/mail/\(id)/raw")
            #expect(raw.headers[.contentType] == "text/plain; charset=utf-8")
            #expect(raw.headers[.init("X-Content-Type-Options")!] == "nosniff")
            #expect(raw.text.contains("Subject: \(subject)"))
        }
    }

    @Test("a text message shows its body, its headers and a link to its source")
    func textMessage() async throws {
        let (server, relay) = try await Self.mailServer()
        let id = try await Self.send(server, to: relay, subject: "Plain", body: "Your juice <is> ready")
        try await server.app.test(.router) { client in
            let browser = try await Self.signedIn(client)
            let page = try await browser.get("/account/mail/\(id)")
            #expect(page.status == .ok)
            #expect(page.text.contains("Your juice &lt;is&gt; ready"))
            #expect(!page.text.contains("<iframe"))
            #expect(page.text.contains("href=\"/account/mail/\(id)/raw\""))
            #expect(page.text.contains("Received"), "the headers")
        }
    }

    @Test("new mail shows in the poll without a reload; an unchanged mailbox answers 304 to its ETag")
    func pollWithETag() async throws {
        let (server, relay) = try await Self.mailServer()
        _ = try await Self.send(server, to: relay, subject: "One", body: "1")
        try await server.app.test(.router) { client in
            let browser = try await Self.signedIn(client)
            let first = try await browser.get("/account/mail/messages.json")
            #expect(first.status == .ok)
            #expect(first.headers[.cacheControl] == "no-store")
            let etag = try #require(first.headers[.eTag])
            #expect(first.text.contains("\"subject\":\"One\""))
            let same = try await browser.get("/account/mail/messages.json", headers: [.ifNoneMatch: etag])
            #expect(same.status == .notModified)
            #expect(same.headers[.eTag] == etag, "the same mailbox, the same tag")
            _ = try await Self.send(server, to: relay, subject: "Two", body: "2")
            let changed = try await browser.get("/account/mail/messages.json", headers: [.ifNoneMatch: etag])
            #expect(changed.status == .ok)
            #expect(changed.headers[.eTag] != etag)
            #expect(changed.text.contains("\"subject\":\"Two\""))
        }
    }

    @Test("a reply from the mailbox goes through the relay to the original sender, from the relay address, never the real one")
    func replyFromMailbox() async throws {
        let (server, relay) = try await Self.mailServer()
        let id = try await Self.send(server, to: relay, subject: "Your order", body: "Thanks!")
        try await server.app.test(.router) { client in
            let browser = try await Self.signedIn(client)
            let page = try await browser.get("/account/mail/\(id)")
            let csrf = try #require(HTML.hiddenInputs(page.text)["csrf"])
            let forged = try await browser.post("/account/mail/\(id)/reply", form: [("csrf", "forged"), ("body", "no")])
            #expect(forged.status == .badRequest)
            let sent = try await browser.post("/account/mail/\(id)/reply", form: [("csrf", csrf), ("body", "Where is my juice?")])
            #expect(sent.status == .ok)
            #expect(HTML.element(id: "message", in: sent.text) == "Your reply was sent.")
        }
        let replies = try await server.relay.messages(.address("orders@example.com"))
        let reply = try #require(replies.first)
        #expect(reply.message.direction == .reply)
        #expect(reply.message.subject == "Re: Your order")
        #expect(reply.message.envelopeSender == relay)
        let detail = try #require(try await server.relay.message(id: reply.message.id))
        let source = String(decoding: detail.source, as: UTF8.self)
        #expect(source.contains("Where is my juice?"))
        #expect(!source.lowercased().contains(TestServer.maria.email), "the real address stays hidden")
        #expect(!source.lowercased().contains(TestServer.maria.appleID))
    }
}
