import AppleIDAdminAPI
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Foundation
import Hummingbird

/// The private relay's mail for scripts and tests (issue 21): `GET /admin/mail?to=ADDRESS` lists
/// (and with `wait=SECONDS` waits for) messages, `GET /admin/mail/{id}` shows one, raw and parsed.
struct AdminMailEndpoints {
    let relay: MailRelay

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/mail") { request, _ in
            let query: RelayMailQuery = request.uri.queryParameters.get("to").map { .address($0) } ?? .all
            let limit = request.uri.queryParameters.get("limit").flatMap { Int($0) } ?? 100
            let mail: [RelayMail]
            if let wait = request.uri.queryParameters.get("wait") {
                guard let seconds = Double(wait), seconds >= 0, seconds <= 60 else {
                    throw AdminError.invalidRequest("wait must be a number of seconds from 0 to 60")
                }
                let since = request.uri.queryParameters.get("since").flatMap { try? Date($0, strategy: .iso8601) }
                mail = try await relay.waitForMail(query, since: since, timeout: .milliseconds(Int(seconds * 1_000)))
            } else {
                mail = try await relay.messages(query, limit: limit)
            }
            return try AdminEndpoints.json(MailList(messages: mail.map(MailSummary.init)))
        }
        admin.get("/mail/:id") { _, context in
            let id = try context.parameters.require("id")
            guard let detail = try await relay.message(id: id) else {
                throw AdminError.notFound("no message \(id)")
            }
            return try AdminEndpoints.json(
                MailDetail(
                    message: MailSummary(detail.mail), headers: detail.headers.map { MailDetail.Header(name: $0.name, value: $0.value) },
                    body: detail.body, raw: String(decoding: detail.source, as: UTF8.self), rawBase64: Data(detail.source).base64EncodedString()))
        }
    }
}

extension MailSummary {
    init(_ mail: RelayMail) {
        let message = mail.message
        self.init(
            id: message.id, direction: message.direction.rawValue, to: message.recipient, destination: message.destination,
            relayAddress: message.relayAddress, from: message.from, subject: message.subject, receivedAt: message.receivedAt, size: message.size,
            delivery: mail.delivery.state.rawValue, attempts: mail.delivery.attempts, lastError: mail.delivery.lastError)
    }
}
