import Foundation
import Logging
import SMTPSending
import SMTPWire
import ServiceLifecycle

/// Sends order confirmations in the background: the order route hands one over and answers at once,
/// so a slow, absent or refusing mail server never holds up or fails an order. A refusal is logged
/// with the server's reply and shown to nobody else.
struct OrderConfirmationMailer: Service {
    let settings: OrderMailSettings
    let client: SMTPClient
    let logger: Logger
    private let confirmations: AsyncStream<OrderConfirmation>
    private let continuation: AsyncStream<OrderConfirmation>.Continuation

    /// - Parameter capacity: confirmations waiting at most; past it new ones are dropped (and logged).
    init(settings: OrderMailSettings, logger: Logger, capacity: Int = 1_000) {
        self.settings = settings
        self.logger = logger
        client = SMTPClient(
            host: settings.host, port: settings.port, hostname: String(OrderConfirmation.domain(of: settings.sender)), timeout: .seconds(30))
        (confirmations, continuation) = AsyncStream.makeStream(bufferingPolicy: .bufferingOldest(capacity))
    }

    /// Queues the confirmation of an order by `account`, unless Juice has no address to write to or
    /// the user turned forwarding off (Apple's `email-disabled`).
    func confirm(juiceName: String, for account: Account, at date: Date) {
        let reason: String
        if account.email.isEmpty {
            reason = "no e-mail address"
        } else if !account.emailForwarding {
            reason = "the user turned e-mail forwarding off"
        } else {
            let confirmation = OrderConfirmation(
                accountID: account.id, recipient: account.email, firstName: account.firstName, juiceName: juiceName, orderedAt: date)
            if case .enqueued = continuation.yield(confirmation) { return }
            reason = "too many confirmations waiting"
        }
        logger.info("order confirmation not sent", metadata: ["account": "\(account.id)", "reason": "\(reason)"])
    }

    /// Sends until shutdown; what is queued then is still sent, each within the client's timeout.
    func run() async {
        await withGracefulShutdownHandler {
            for await confirmation in confirmations { await send(confirmation) }
        } onGracefulShutdown: { [continuation] in
            continuation.finish()
        }
    }

    private func send(_ confirmation: OrderConfirmation) async {
        let source = confirmation.message(from: settings, messageID: UUID().uuidString.lowercased())
        let result = await client.send(from: settings.sender, to: confirmation.recipient, source: source)
        let account: Logger.MetadataValue = "\(confirmation.accountID)"
        switch result {
        case .sent:
            logger.info("order confirmation sent", metadata: ["account": account])
        case .permanentFailure(let reply):
            logger.warning("order confirmation refused", metadata: ["account": account, "reply": "\(reply)"])
        case .transientFailure(let reason):
            logger.warning("order confirmation not sent, the mail server is unavailable", metadata: ["account": account, "reason": "\(reason)"])
        }
    }
}
