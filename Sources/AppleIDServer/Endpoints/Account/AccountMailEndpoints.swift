import AppleIDProvider
import AppleIDRelay
import Foundation
import Hummingbird

/// `/account/mail`: the Apple ID's mailbox of relayed mail (spec §11), behind the account pages'
/// own sign-in. A message's HTML is never put in the page: it is served alone, with a policy that
/// runs no script and loads nothing remote (no tracking pixels), into a sandboxed frame.
///
/// New mail appears by polling `messages.json` with its ETag rather than by a held-open stream: the
/// relay's wake-up signal is per instance, and behind a load balancer another instance may take
/// the mail; a poll asks the shared store, and an unchanged mailbox costs one query and a 304.
struct AccountMailEndpoints {
    let account: AccountEndpoints
    var provider: AppleIDProvider { account.provider }
    var relay: MailRelay { account.relay }

    struct ReplyForm: Decodable {
        var csrf: String?
        var body: String?
        var locale: String?
    }

    /// What the poll answers, and the list page shows.
    struct Summary: Encodable {
        var id: String
        var from: String
        var subject: String
        /// The exact moment (ISO 8601, UTC).
        var receivedAt: String
        /// As the page shows it (``AccountMailPage/time(_:)``).
        var received: String

        enum CodingKeys: String, CodingKey {
            case id, from, subject, received
            case receivedAt = "received_at"
        }
    }

    /// The mail body's own policy: nothing but inline styles and embedded images; `sandbox` again,
    /// for a browser that opens the body outside its frame.
    static let bodyPolicy =
        "default-src 'none'; img-src data: cid:; style-src 'unsafe-inline'; font-src data:; frame-ancestors 'self'; base-uri 'none'; form-action 'none'; sandbox"

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/account/mail") { request, _ in
            let locale = PageLocale.choose(for: request)
            guard let (user, cookie) = try await account.signedIn(request) else { return try account.signInPage(request, locale: locale) }
            let messages = try await summaries(accountID: user.id)
            let nonce = provider.random.hex(bytes: 16)
            return try account.renderer.render(
                AccountMailPage(
                    title: account.text("mail_heading", locale), locale: locale, t: account.renderer.strings.table(locale),
                    appleID: user.appleID, csrf: account.csrf(cookie), messages: messages, scriptNonce: nonce),
                template: "account_mail", scriptNonce: nonce)
        }
        router.get("/account/mail/messages.json") { request, _ in
            guard let (user, _) = try await account.signedIn(request) else { return Response(status: .unauthorized) }
            // Sorted keys: the same mailbox must give the same bytes, hence the same tag, on every poll.
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let body = try encoder.encode(["messages": try await summaries(accountID: user.id)])
            return EntityTag.respond(to: request, body: Array(body), contentType: "application/json", cacheControl: "no-store")
        }
        router.get("/account/mail/:id") { request, context in
            let locale = PageLocale.choose(for: request)
            guard let (user, cookie) = try await account.signedIn(request) else { return try account.signInPage(request, locale: locale) }
            let detail = try await mine(try context.parameters.require("id"), accountID: user.id)
            return try messagePage(detail, csrf: account.csrf(cookie), locale: locale, message: nil)
        }
        router.get("/account/mail/:id/body") { request, context in
            guard let (user, _) = try await account.signedIn(request) else { return Response(status: .unauthorized) }
            let detail = try await mine(try context.parameters.require("id"), accountID: user.id)
            guard let html = MessageBody.read(detail.source).html else { throw HTTPError(.notFound) }
            return Response(
                status: .ok,
                headers: [
                    .contentType: "text/html; charset=utf-8", .contentSecurityPolicy: Self.bodyPolicy, .xFrameOptions: "SAMEORIGIN",
                    .cacheControl: "no-store",
                ],
                body: .init(byteBuffer: ByteBuffer(string: html)))
        }
        router.get("/account/mail/:id/raw") { request, context in
            guard let (user, _) = try await account.signedIn(request) else { return Response(status: .unauthorized) }
            let detail = try await mine(try context.parameters.require("id"), accountID: user.id)
            return Response(
                status: .ok,
                headers: [.contentType: "text/plain; charset=utf-8", .xContentTypeOptions: "nosniff", .cacheControl: "no-store"],
                body: .init(byteBuffer: ByteBuffer(bytes: detail.source)))
        }
        router.post("/account/mail/:id/reply") { request, context in
            let form = try await FormDecoding.decodePageForm(ReplyForm.self, from: request)
            let locale = PageLocale.choose(for: request, formLocale: form.locale)
            guard let (user, cookie) = try await account.signedIn(request) else { return try account.signInPage(request, locale: locale) }
            guard account.csrfMatches(form.csrf, cookie) else {
                return try account.signInPage(request, locale: locale, message: account.text("message_form_expired", locale), status: .badRequest)
            }
            let id = try context.parameters.require("id")
            let detail = try await mine(id, accountID: user.id)
            let outcome = try await relay.reply(to: id, accountID: user.id, text: form.body ?? "")
            let message: String
            switch outcome {
            case .sent: message = account.text("message_reply_sent", locale)
            case .refused(let reason): message = account.text("message_reply_refused", locale, values: ["reason": reason])
            case nil: throw HTTPError(.notFound)
            }
            return try messagePage(detail, csrf: account.csrf(cookie), locale: locale, message: message)
        }
    }

    /// The message if it is in this Apple ID's mailbox; 404 otherwise (whoever else's it is).
    private func mine(_ id: String, accountID: String) async throws -> RelayMailDetail {
        guard let detail = try await relay.mailboxMessage(id: id, accountID: accountID) else { throw HTTPError(.notFound) }
        return detail
    }

    private func summaries(accountID: String) async throws -> [Summary] {
        try await relay.mailbox(accountID: accountID).map {
            Summary(
                id: $0.message.id, from: $0.message.from, subject: $0.message.subject, receivedAt: AccountMailPage.exactTime($0.message.receivedAt),
                received: AccountMailPage.time($0.message.receivedAt))
        }
    }

    private func messagePage(_ detail: RelayMailDetail, csrf: String, locale: String, message: String?) throws -> Response {
        try account.renderer.render(
            AccountMailMessagePage(detail: detail, csrf: csrf, locale: locale, strings: account.renderer.strings, message: message),
            template: "account_mail_message")
    }
}
