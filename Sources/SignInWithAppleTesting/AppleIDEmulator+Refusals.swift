import AppleIDProtocol
import Logging
import Synchronization

/// A refusal the emulated server decided, with the precise reason it logged. The wire keeps Apple's
/// terse answer (`{"error":"invalid_client"}`); the reason reaches tests through the server's log.
public struct ServerRefusal: Sendable, Hashable, CustomStringConvertible {
    /// `token`, `revoke`, `authorize`, …: the endpoint that refused.
    public var endpoint: String
    /// The `client_id` of the request, when it had one.
    public var clientID: String?
    /// The OAuth `error` sent, when the log names it.
    public var error: OAuthErrorCode?
    /// Why the server refused, as precisely as it knows: "client secret exp is 181 days after iat".
    public var reason: String

    public var description: String { "\(endpoint) refused \(clientID ?? "-"): \(error?.rawValue ?? "error"): \(reason)" }
}

extension AppleIDEmulator {
    /// Every refusal the server decided since it started, oldest first.
    ///
    /// ```swift
    /// await #expect(throws: AppleServiceError.self) { try await siwa.tokens.exchange(code: code, redirectURI: nil) }
    /// #expect(apple.lastRefusal(clientID: apple.servicesID)?.reason.contains("was already redeemed") == true)
    /// ```
    public var refusals: [ServerRefusal] { refusalLog.all }

    /// The latest refusal of a request by `clientID`.
    public func lastRefusal(clientID: String) -> ServerRefusal? { refusalLog.all.last { $0.clientID == clientID } }
}

/// The refusals read from the server's log: each "<endpoint> refused" line carries its reason as metadata.
final class RefusalLog: Sendable {
    private let entries = Mutex<[ServerRefusal]>([])

    var all: [ServerRefusal] { entries.withLock { $0 } }

    func record(_ refusal: ServerRefusal) { entries.withLock { $0.append(refusal) } }

    /// `logger`, also writing the server's refusals to this log (at every level, whatever `logger`'s).
    func observing(_ logger: Logger) -> Logger {
        let handlers: [any LogHandler] = [logger.handler, RefusalLogHandler(log: self)]
        return Logger(label: logger.label) { _ in MultiplexLogHandler(handlers) }
    }
}

/// Picks the server's refusal lines out of its log: a message "<endpoint> refused" with a `reason`.
struct RefusalLogHandler: LogHandler {
    let log: RefusalLog
    var logLevel: Logger.Level = .trace
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let message = event.message.description
        guard message.hasSuffix(" refused"), let reason = event.metadata?["reason"] else { return }
        let clientID = event.metadata?["client_id"].map { "\($0)" }.flatMap { $0 == "-" ? nil : $0 }
        log.record(
            ServerRefusal(
                endpoint: String(message.dropLast(" refused".count)), clientID: clientID,
                error: event.metadata?["error"].map { OAuthErrorCode(rawValue: "\($0)") }, reason: "\(reason)"))
    }
}
