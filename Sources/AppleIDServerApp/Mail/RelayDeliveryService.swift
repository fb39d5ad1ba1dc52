import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import Logging
import ServiceLifecycle

/// Works the relay's smarthost queue: tries what is due, then waits for new mail or the next
/// second. The queue is in the store, so what a stopped instance left is tried after a restart.
package struct RelayDeliveryService: Service {
    package let relay: MailRelay
    package let signal: CredentialEventSignal
    package let transport: any MailTransport
    package let logger: Logger

    package init(relay: MailRelay, transport: any MailTransport, logger: Logger) {
        self.relay = relay
        self.signal = relay.mailSignal
        self.transport = transport
        self.logger = logger
    }

    package func run() async throws {
        let relay = self.relay
        let transport = self.transport
        try await PeriodicService(
            pace: .signalled(signal, timeout: .seconds(1)), failureMessage: "relay delivery pass failed", failureLevel: .warning, logger: logger
        ) {
            try await relay.deliverDue(using: transport) > 0
        }.run()
    }
}
