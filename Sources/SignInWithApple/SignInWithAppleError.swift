import AppleIDProtocol

/// What went wrong talking to Apple: Apple's own refusal with its code and description, an answer
/// that is not what Apple sends, or the network.
///
/// A struct with static members, as jwt-kit's `JWTError`, so that a new kind breaks no caller: match
/// with `catch let error as AppleServiceError where error.refusal?.code == .invalidGrant`, or compare with `==`.
public struct AppleServiceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of failure it is; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        /// Apple answered with an OAuth error: see ``AppleServiceError/refusal``.
        public static let refused = Kind("refused")
        /// An answer that is neither a success nor an OAuth error (an HTML 403, a 5xx, garbage).
        public static let unexpectedResponse = Kind("unexpectedResponse")
        /// The request did not complete (timeout, refused connection, …).
        public static let transport = Kind("transport")
    }

    public let kind: Kind
    /// For ``Kind/refused``: Apple's code and description, and the likely causes the kit found.
    public let refusal: AppleRefusal?
    /// The HTTP status of Apple's answer, when there was one.
    public let status: Int?
    /// For ``Kind/unexpectedResponse`` and ``Kind/transport``: what was wrong.
    public let reason: String?

    private init(_ kind: Kind, refusal: AppleRefusal? = nil, status: Int? = nil, reason: String? = nil) {
        self.kind = kind
        self.refusal = refusal
        self.status = status
        self.reason = reason
    }

    /// Apple answered with an OAuth error (`invalid_grant`, `invalid_client`, …): its code and
    /// description, and the likely causes the kit found (``AppleRefusal``).
    public static func refused(_ refusal: AppleRefusal) -> Self { Self(.refused, refusal: refusal, status: refusal.status) }
    /// An answer that is neither a success nor an OAuth error (an HTML 403, a 5xx, garbage).
    public static func unexpectedResponse(status: Int, reason: String) -> Self { Self(.unexpectedResponse, status: status, reason: reason) }
    /// The request did not complete (timeout, refused connection, …).
    public static func transport(_ reason: String) -> Self { Self(.transport, reason: reason) }

    public var description: String {
        if let refusal { return refusal.description }
        if kind == .transport { return "the request failed: \(reason ?? "")" }
        return "unexpected answer (\(status.map(String.init) ?? "-")): \(reason ?? "")"
    }
}

extension AppleServiceError: MatchableError {}
