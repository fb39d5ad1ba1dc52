import Foundation

extension AppleIDProvider {
    /// Where a notification to `url` may go, checked now: outside development mode the host must be
    /// a name (not an IP literal) whose addresses are all public, and the destination carries the
    /// first one, so that the sender connects to exactly the address that was checked. Throws
    /// ``DeliveryFailure/destinationNotAllowed`` or, when the name does not resolve,
    /// ``DeliveryFailure/couldNotConnect``.
    public func notificationDestination(for url: String) async throws(DeliveryFailure) -> NotificationDestination {
        switch await checkDestination(url) {
        case .allowed(let destination): return destination
        case .refused(let reason):
            logger.debug("notification destination refused", metadata: ["url": "\(url)", "reason": "\(reason)"])
            throw .destinationNotAllowed
        case .unresolved(let host, let error):
            logger.debug("notification endpoint did not resolve", metadata: ["host": "\(host)", "error": "\(error)"])
            throw .couldNotConnect
        }
    }

    package enum DestinationCheck {
        case allowed(NotificationDestination)
        /// The sentence the console shows.
        case refused(String)
        case unresolved(host: String, error: String)
    }

    /// The destination rule of ``notificationDestination(for:)``, with the refusal as a sentence.
    package func checkDestination(_ url: String) async -> DestinationCheck {
        guard let host = URLComponents(string: url)?.host?.trimmingCharacters(in: CharacterSet(charactersIn: "[]")), !host.isEmpty else {
            return .refused("The endpoint must be an absolute URL.")
        }
        // Development mode: Juice and test receivers listen on 127.0.0.1; the client resolves as it likes.
        if configuration.developmentMode { return .allowed(NotificationDestination(url: url, host: host, address: nil)) }
        if NotificationDestinationRule.isIPLiteral(host) {
            return .refused("The endpoint's host must be a host name, not an IP address.")
        }
        let addresses: [EndpointAddress]
        do {
            addresses = try await endpointResolver.addresses(of: host)
        } catch {
            return .unresolved(host: host, error: "\(error)")
        }
        guard let first = addresses.first else { return .unresolved(host: host, error: "no address") }
        // All of them, not just the first: a name with one public and one private address is refused,
        // whichever a client would pick.
        guard addresses.allSatisfy(NotificationDestinationRule.isPublic) else {
            return .refused(
                "\(host) resolves to a loopback, private, link-local or metadata address; notifications go only to public addresses.")
        }
        return .allowed(NotificationDestination(url: url, host: host, address: first))
    }
}
