import AppleIDProtocol
import AppleIDProvider
import Foundation
import SMTPWire

/// A relayed message as the admin API, the CLI and the mailbox pages show it: its record, its source
/// and the header fields read from it.
public struct RelayMailDetail: Sendable, Hashable {
    public var mail: RelayMail
    public var source: [UInt8]
    public var headers: [(name: String, value: String)] { MessageHeaders.parse(source).fields.map { ($0.name, $0.value) } }
    /// The body as text (bytes that are not UTF-8 replaced).
    public var body: String { String(decoding: source[MessageHeaders.parse(source).bodyStart...], as: UTF8.self) }

    public static func == (lhs: RelayMailDetail, rhs: RelayMailDetail) -> Bool { lhs.mail == rhs.mail && lhs.source == rhs.source }
    public func hash(into hasher: inout Hasher) { hasher.combine(mail) }
}

extension MailRelay {
    /// The longest a ``waitForMail(_:timeout:)`` may wait (the admin API's long-poll).
    public static let longestWait: Duration = .seconds(60)
    /// How often a wait reads the store again: another instance on the same database accepts mail
    /// without waking this one's signal.
    static let rereadInterval: Duration = .seconds(1)

    /// Relayed messages, newest first.
    public func messages(_ query: RelayMailQuery, limit: Int = 100) async throws -> [RelayMail] {
        try await store.relayMail(normalized(query), limit: max(1, min(limit, 1_000)))
    }

    /// One message with its source, or `nil`.
    public func message(id: String) async throws -> RelayMailDetail? {
        guard let mail = try await store.relayMail(id: id), let source = try await store.relayMessageSource(id: id) else { return nil }
        return RelayMailDetail(mail: mail, source: source)
    }

    /// The Apple ID's mailbox: what was forwarded to it, newest first.
    public func mailbox(accountID: String, limit: Int = 100) async throws -> [RelayMail] {
        try await messages(.mailbox(accountID: accountID), limit: limit)
    }

    /// The matching messages received after `since` (all when `nil`), as soon as there is one, or
    /// `[]` after `timeout`: a client waits without a sleep loop. Woken at once by this instance's
    /// accepts, and within ``rereadInterval`` by another instance's.
    public func waitForMail(_ query: RelayMailQuery, since: Date? = nil, timeout: Duration) async throws -> [RelayMail] {
        let deadline = ContinuousClock.now + min(timeout, Self.longestWait)
        while true {
            let generation = mailSignal.generation
            let found = try await messages(query).filter { mail in since.map { mail.message.receivedAt > $0 } ?? true }
            let remaining = deadline - ContinuousClock.now
            if !found.isEmpty || remaining <= .zero { return found }
            await mailSignal.wait(since: generation, timeout: min(remaining, Self.rereadInterval))
        }
    }

    private func normalized(_ query: RelayMailQuery) -> RelayMailQuery {
        if case .address(let address) = query { return .address(address.lowercased()) }
        return query
    }
}
