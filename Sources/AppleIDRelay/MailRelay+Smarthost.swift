import AppleIDProvider
import Foundation
import SMTPWire

extension MailRelay {
    /// Tries every due queued delivery once through `transport`: sent, retried later with backoff,
    /// or failed with a bounce to the sender. Each is claimed first, so several instances on one
    /// database never send one message twice at once. Returns how many were tried.
    @discardableResult
    public func deliverDue(using transport: any MailTransport, limit: Int = 50) async throws -> Int {
        let now = provider.clock.now()
        var tried = 0
        for due in try await store.dueRelayDeliveries(at: now, limit: limit) {
            guard try await store.claimRelayDelivery(messageID: due.messageID, now: now, leaseUntil: now + settings.leaseDuration),
                let mail = try await store.relayMail(id: due.messageID)
            else { continue }
            tried += 1
            let result = await transport.send(from: mail.message.envelopeSender, to: mail.message.destination, message: outgoing(mail.message))
            try await record(result, of: mail, at: provider.clock.now())
        }
        return tried
    }

    /// The stored message, read a chunk at a time while the transport sends it.
    private func outgoing(_ message: RelayMessage) -> OutgoingRelayMessage {
        OutgoingRelayMessage(size: message.size) { [store] body in
            guard try await store.readRelayMessageSource(id: message.id, upTo: nil, body) else { throw StoredMessageGone() }
        }
    }

    /// How much of a failed message a bounce reads for its header section: the store lends whole
    /// chunks, and a stored head is its own first chunk, so the whole section comes with the first.
    static let headerReadLimit = ReceivedHead.maximumBytes

    /// A message purged or deleted between its claim and its sending.
    struct StoredMessageGone: Error {}

    private func record(_ result: MailTransportResult, of mail: RelayMail, at now: Date) async throws {
        var delivery = mail.delivery
        delivery.attempts += 1
        delivery.updatedAt = now
        let reason: String
        let status: String
        switch result {
        case .sent:
            delivery.state = .sent
            delivery.nextAttemptAt = nil
            delivery.lastError = nil
            try await store.record(delivery, bounce: nil)
            return
        case .transientFailure(let why):
            let delay = min(settings.firstRetryDelay * pow(2, Double(delivery.attempts - 1)), settings.maximumRetryDelay)
            guard now.timeIntervalSince(mail.message.receivedAt) + delay <= settings.deliveryWindow else {
                (reason, status) = ("delivery time expired: \(why)", "4.4.7")
                break
            }
            delivery.nextAttemptAt = now + delay
            delivery.lastError = hidingDestination(why, of: mail.message)
            try await store.record(delivery, bounce: nil)
            return
        case .permanentFailure(let why):
            (reason, status) = (why, DeliveryStatusNotification.status(in: why, fallback: "5.0.0"))
        }
        delivery.state = .failed
        delivery.nextAttemptAt = nil
        delivery.lastError = hidingDestination(reason, of: mail.message)
        try await store.record(
            delivery, bounce: try await bounce(of: mail.message, reason: delivery.lastError ?? reason, status: status, now: now))
        provider.logger.notice("relay delivery failed", metadata: ["message": "\(mail.message.id)", "status": "\(status)"])
    }

    /// The sender learns the address it wrote to, never the user's real one (which the smarthost's
    /// reply may name).
    private func hidingDestination(_ text: String, of message: RelayMessage) -> String {
        message.direction == .forward ? text.replacingOccurrences(of: message.destination, with: message.recipient, options: .caseInsensitive) : text
    }

    /// The DSN to the failed message's original sender, with the failed message's header section (read
    /// from its first chunk or chunks, up to ``headerReadLimit``); none for a bounce (no bounce loops)
    /// or a null sender.
    private func bounce(of failed: RelayMessage, reason: String, status: String, now: Date) async throws -> AcceptedRelayMail? {
        guard failed.direction != .bounce, !failed.originalSender.isEmpty else { return nil }
        var source: [UInt8] = []
        _ = try await store.readRelayMessageSource(id: failed.id, upTo: Self.headerReadLimit) { source += $0 }
        let id = newMessageID()
        let headersEnd = MessageHeaders.parse(source).fields.last.map { $0.raw.endIndex } ?? 0
        let dsn = DeliveryStatusNotification(
            reportingDomain: relayDomain, messageID: id, recipient: failed.originalSender, finalRecipient: failed.recipient, status: status,
            diagnostic: reason, arrivalDate: failed.receivedAt, date: now, originalHeaders: source[..<headersEnd]
        ).source
        let message = RelayMessage(
            id: id, direction: .bounce, accountID: failed.accountID, teamID: failed.teamID, relayAddress: failed.relayAddress, originalSender: "",
            recipient: failed.originalSender, envelopeSender: "", destination: failed.originalSender,
            from: "Mail Delivery System <MAILER-DAEMON@\(relayDomain)>", subject: "Undelivered Mail Returned to Sender", receivedAt: now,
            size: dsn.count)
        return AcceptedRelayMail(mail: RelayMail(message: message, delivery: firstDelivery(of: message, now: now)), source: dsn)
    }
}
