import AppleIDProvider
import AppleIDRelay
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
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let generation = signal.generation
            do {
                if try await relay.deliverDue(using: transport) > 0 { continue }
            } catch {
                logger.warning("relay delivery pass failed", metadata: ["error": "\(String(reflecting: type(of: error)))"])
            }
            await signal.wait(since: generation, timeout: .seconds(1))
        }
    }
}
