import AppleIDRelay
import AppleIDServer
import Foundation
import Logging
import ServiceLifecycle

extension ServerBootstrap {
    /// The private relay's SMTP listener (unless `--smtp-port 0`) and, with `--smtp-smarthost`, the
    /// queue that hands mail to it.
    static func relayServices(settings: ServeSettings, relay: MailRelay, logger: Logger) async throws -> [any Service] {
        var services: [any Service] = []
        let hostname = relay.domain
        if let smarthost = settings.smtpSmarthost, let transport = SMTPSmarthostTransport.parse(smarthost, hostname: hostname) {
            services.append(PeriodicService.relayDelivery(relay: relay, transport: transport, logger: logger))
        }
        let port = settings.smtpPort ?? ServeSettings.defaultSMTPPort
        guard port != 0 else { return services }
        if settings.smtpPort == nil, (try? await PortCheck.ensureFree(host: settings.smtpHost, port: port)) == nil {
            logger.warning("SMTP port \(port) is taken: the relay's listener is off (choose one with --smtp-port)")
            return services
        }
        if settings.smtpPort != nil { try await PortCheck.ensureFree(host: settings.smtpHost, port: port) }
        if !settings.smtpBindsLoopbackOnly {
            logger.warning(
                "the SMTP relay listens beyond loopback on \(settings.smtpHost): it takes a sender only from an address the SPF policy of the sender's domain lists (ip4:/ip6:, include:, redirect=)"
            )
        }
        services.append(
            SMTPListener(
                host: settings.smtpHost, port: port, relay: relay, hostname: hostname, logger: logger,
                authenticatesSenders: !settings.smtpBindsLoopbackOnly,
                isOptional: settings.smtpPort == nil))
        return services
    }
}
