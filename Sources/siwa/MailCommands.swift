import AppleIDAdminAPI
import ArgumentParser
import Foundation
import NIOCore
import SignInWithApple

/// `siwa mail`: the private relay's mail, through the admin API.
struct Mail: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Mail the private relay accepted: list it, show a message, wait for one.", subcommands: [List.self, Show.self, Wait.self])

    struct List: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "List relayed messages, newest first.")
        @Option(help: "Only messages sent to or going to this address (a relay address, reply alias or real address).") var to: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(.get, "/admin/mail" + Mail.query(["to": to]), as: MailList.self)
        }
    }

    struct Show: AsyncParsableCommand {
        static let configuration = CommandConfiguration(abstract: "Show one message: its record, headers, body and raw source.")
        @Argument(help: "The message ID.") var id: String
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            try await connection.client().show(.get, "/admin/mail/\(AdminClient.segment(id))", as: MailDetail.self)
        }
    }

    struct Wait: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Wait until a message to the address lands (the server holds the request; no polling), then print it.")
        @Option(help: "The address (a relay address, reply alias or real address).") var to: String
        @Option(help: "How long to wait, e.g. 10s (at most 60s).") var timeout = "10s"
        @Option(help: "Only messages received after this ISO 8601 time.") var since: String?
        @OptionGroup var connection: AdminConnection
        func run() async throws {
            guard let seconds = Mail.seconds(timeout), seconds <= 60 else { throw ValidationError("--timeout \(timeout): give 0s to 60s") }
            var client = try connection.client()
            client.transport = AsyncHTTPClientTransport(timeout: .seconds(Int64(seconds.rounded(.up)) + 10), userAgent: "siwa")
            let answer = try await client.send(
                .get, "/admin/mail" + Mail.query(["to": to, "wait": String(seconds), "since": since]), as: MailList.self)
            guard !answer.messages.isEmpty else {
                throw AdminFailure(message: "no message to \(to) within \(timeout)")
            }
            AdminClient.print(answer)
        }
    }

    static func query(_ items: [String: String?]) -> String {
        var components = URLComponents()
        components.queryItems = items.sorted { $0.key < $1.key }.compactMap { key, value in value.map { URLQueryItem(name: key, value: $0) } }
        // `+` in an address is a space to a form decoder: spelt out.
        let encoded = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B") ?? ""
        return encoded.isEmpty ? "" : "?" + encoded
    }

    /// `10s`, `500ms`, `2m`, or plain seconds.
    static func seconds(_ text: String) -> Double? {
        for (suffix, scale) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where text.hasSuffix(suffix) {
            return Double(text.dropLast(suffix.count)).map { $0 * scale }.flatMap { $0 >= 0 ? $0 : nil }
        }
        return Double(text).flatMap { $0 >= 0 ? $0 : nil }
    }
}
