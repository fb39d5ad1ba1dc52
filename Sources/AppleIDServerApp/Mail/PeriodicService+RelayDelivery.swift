import AppleIDRelay
import Logging

extension PeriodicService {
    /// Works the relay's smarthost queue: tries what is due, then waits for new mail or the next
    /// second. The queue is in the store, so what a stopped instance left is tried after a restart.
    package static func relayDelivery(relay: MailRelay, transport: any MailTransport, logger: Logger) -> PeriodicService {
        PeriodicService(
            pace: .signalled(relay.mailSignal, timeout: .seconds(1)), failureMessage: "relay delivery pass failed", failureLevel: .warning,
            logger: logger
        ) {
            try await relay.deliverDue(using: transport) > 0
        }
    }
}
