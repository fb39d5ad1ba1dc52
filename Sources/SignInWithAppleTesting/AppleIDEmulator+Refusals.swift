import AppleIDProtocol
import AppleIDProvider
import Synchronization

/// A refusal the emulated server decided, with its precise reason. The wire keeps Apple's terse
/// answer (`{"error":"invalid_client"}`); the reason reaches tests from the engine, typed.
public struct ServerRefusal: Sendable, Hashable, CustomStringConvertible {
    /// `token`, `revoke`, `authorize`, …: the endpoint that refused.
    public var endpoint: String
    /// The `client_id` of the request, when it had one.
    public var clientID: String?
    /// The OAuth `error` the answer carried.
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

/// The refusals the engine handed over, typed (a ``RefusalObserver``).
final class RefusalLog: RefusalObserver {
    private let entries = Mutex<[ServerRefusal]>([])

    var all: [ServerRefusal] { entries.withLock { $0 } }

    func refused(_ refusal: EngineRefusal) {
        let clientID = refusal.clientID.flatMap { $0.isEmpty ? nil : $0 }
        let entry = ServerRefusal(endpoint: refusal.endpoint, clientID: clientID, error: refusal.error.code, reason: refusal.error.reason)
        entries.withLock { $0.append(entry) }
    }
}
