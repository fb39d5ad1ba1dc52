import AppleIDProtocol

/// A refusal the engine answered with, typed: the endpoint (`authorize`, `token`, `revoke`, …), the
/// request's `client_id` when it had one, and the OAuth error with its precise reason (never sent).
public struct EngineRefusal: Sendable, Hashable {
    public var endpoint: String
    public var clientID: String?
    public var error: OAuthError
}

/// Hears every refusal the engine answers with, beside its log line: the emulator hands them to tests
/// without reading the log.
public protocol RefusalObserver: Sendable {
    func refused(_ refusal: EngineRefusal)
}
