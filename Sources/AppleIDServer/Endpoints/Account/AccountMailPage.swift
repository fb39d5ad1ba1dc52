import AppleIDProvider
import AppleIDRelay
import Foundation

/// `/account/mail`: the list of relayed messages, newest first.
struct AccountMailPage {
    let title: String
    let locale: String
    let t: [String: String]
    let wide = true
    let appleID: String
    let csrf: String
    let messages: [AccountMailEndpoints.Summary]
    var hasMessages: Bool { !messages.isEmpty }
    let scriptNonce: String

    /// The same in every language: the day and the time in UTC, to the minute (`2026-11-25 11:37 UTC`).
    static func time(_ date: Date) -> String {
        let day = date.formatted(.iso8601.year().month().day().dateSeparator(.dash))
        let minute = date.formatted(.iso8601.time(includingFractionalSeconds: false).timeSeparator(.colon))
        return "\(day) \(minute.prefix(5)) UTC"
    }

    /// The exact moment, for a `<time datetime>` and a script (`2026-11-25T11:37:31Z`).
    static func exactTime(_ date: Date) -> String { date.formatted(.iso8601) }
}

/// `/account/mail/{id}`: one message, its headers, its body (HTML in a sandboxed frame, or text),
/// a link to its source, and a reply form.
struct AccountMailMessagePage {
    struct Header {
        let name: String
        let value: String
    }

    let title: String
    let locale: String
    let t: [String: String]
    let wide = true
    let csrf: String
    let message: String?
    let id: String
    let from: String
    let to: String
    let subject: String
    let receivedAt: String
    let receivedAtExact: String
    let hasHTML: Bool
    let text: String?
    let headers: [Header]

    init(detail: RelayMailDetail, csrf: String, locale: String, strings: PageStrings, message: String?) {
        let body = MessageBody.read(detail.source)
        let mail = detail.mail.message
        self.title = mail.subject.isEmpty ? strings.text("mail_no_subject", locale) : mail.subject
        self.locale = locale
        self.t = strings.table(locale)
        self.csrf = csrf
        self.message = message
        self.id = mail.id
        self.from = mail.from
        self.to = mail.recipient
        self.subject = title
        self.receivedAt = AccountMailPage.time(mail.receivedAt)
        self.receivedAtExact = AccountMailPage.exactTime(mail.receivedAt)
        self.hasHTML = body.html != nil
        self.text = body.html == nil ? (body.text ?? detail.body) : nil
        self.headers = detail.headers.map { Header(name: $0.name, value: $0.value) }
    }
}
