import AppleIDProtocol

/// Development mode's fault switch as the token endpoint meets it (`siwa check`'s hostile answers,
/// issue 20; `AppleIDDevelopmentFaults`): once the client has proved itself, the engine takes what is
/// armed for it. Asked only in development mode, and only by `grant_type=authorization_code`.
public protocol TokenFaultSwitch: Sendable {
    /// Takes, once, the fault armed for `client`: throws to answer with that error instead, may wait
    /// before the genuine answer, or returns the defect of the answer's id_token.
    func take(for client: ClientID) async throws -> (any IdentityTokenDefect)?
    /// Removes every armed fault (a reset).
    func disarmAll()
}

/// One id_token spoiled on purpose: its claims changed, or its signature made otherwise than by the
/// active key, so that only the app's own checks can catch it.
public protocol IdentityTokenDefect: Sendable {
    func corrupt(_ claims: inout IdentityTokenClaims)
    var signature: IdentityTokenSignature { get }
}

/// How a spoiled id_token is signed.
public enum IdentityTokenSignature: Sendable, Hashable {
    /// By the active key, as every id_token is.
    case activeKey
    /// RS256 under the active key's `kid` by a key `/auth/keys` never published.
    case unpublishedKey
    /// `{"alg":"none"}` and an empty signature.
    case algNone
    /// HS256 whose HMAC key is the active public key's PEM (the algorithm-confusion attack).
    case hs256
}
