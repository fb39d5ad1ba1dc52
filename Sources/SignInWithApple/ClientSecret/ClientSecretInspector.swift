import AppleIDProtocol
import Crypto
import Foundation

/// Checks a client secret against every rule Apple applies to it (spec §5) and explains each verdict.
///
/// ```swift
/// let inspector = try ClientSecretInspector(
///     key: .privateKeyPEM(p8), clientID: "com.example.app.web", teamID: "TEAMID1234", keyID: "KEYID12345")
/// let report = inspector.inspect(secret)
/// for rule in report.rules { print(rule.passed ? "✓" : "✗", rule.name, rule.explanation) }
/// ```
///
/// The rules are the ``ClientSecretRulebook`` that the Apple ID server's client authenticator acts
/// on, so the inspector and the server agree on every secret. Each rule is judged on its own, so a
/// secret that breaks one rule fails exactly that rule.
public struct ClientSecretInspector: Sendable {
    /// The key the signature is checked with.
    public enum Key: Sendable {
        /// A `-----BEGIN PUBLIC KEY-----` PEM (SPKI, P-256).
        case publicKeyPEM(String)
        /// The `AuthKey_<KeyID>.p8` PEM; the public key is derived from it.
        case privateKeyPEM(String)
        case publicKey(P256.Signing.PublicKey)
    }

    /// Why the key given to the inspector does not load; a struct with static members, as
    /// ``IdentityTokenError``, so that a new reason breaks no caller.
    public struct KeyError: Error, Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ description: String) { self.description = description }

        public static let notAP256Key = Self("the key is not a PEM-encoded P-256 key")
    }

    /// Apple's rules for a client secret, in the order a report lists them; the raw value is the label.
    public typealias RuleID = ClientSecretRule

    /// The verdict on one rule.
    public struct Rule: Sendable, Hashable {
        public var id: RuleID
        /// `alg`, `kid`, `iss`, … (the ``RuleID`` raw value).
        public var name: String
        public var passed: Bool
        /// Why the rule passed or failed, with the values involved.
        public var explanation: String
    }

    /// The JOSE header as decoded; a member of the wrong type reads as `nil`.
    public struct Header: Sendable, Hashable {
        public var algorithm: String?
        public var keyID: String?
        public var type: String?
    }

    /// The claims as decoded; a claim of the wrong type (an `aud` array, a string `exp`) reads as `nil`.
    public struct Claims: Sendable, Hashable {
        public var issuer: String?
        public var subject: String?
        public var audience: String?
        public var issuedAt: Int?
        public var expiresAt: Int?
    }

    /// Every rule's verdict, with the decoded header and claims (`nil` when unreadable).
    public struct Report: Sendable, Hashable {
        public var rules: [Rule]
        public var header: Header?
        public var claims: Claims?

        /// Whether Apple would accept the secret: every rule passed.
        public var passed: Bool { rules.allSatisfy(\.passed) }
        public var failures: [Rule] { rules.filter { !$0.passed } }
        public subscript(id: RuleID) -> Rule? { rules.first { $0.id == id } }
    }

    public let publicKey: P256.Signing.PublicKey?
    public let clientID: String?
    public let teamID: String?
    public let keyID: String?
    /// The accepted `aud` values.
    public let audiences: Set<String>
    /// How far in the future `iat` may be, in seconds.
    public let issuedAtSkew: Int
    let clock: @Sendable () -> Date

    /// The expected `aud` (the first of ``audiences``).
    public var audience: String { audiences.sorted().first ?? ClientSecretRulebook.appleAudience }

    /// - Parameters:
    ///   - key: checks the signature; without it the `signature` rule fails as not checked.
    ///   - clientID, teamID, keyID: the expected `sub`, `iss` and `kid`; without them only their shape is checked.
    ///   - audience: the expected `aud`; Apple's is `https://appleid.apple.com`.
    public init(
        key: Key? = nil, clientID: String? = nil, teamID: String? = nil, keyID: String? = nil,
        audience: String = ClientSecretRulebook.appleAudience, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        try self.init(key: key, clientID: clientID, teamID: teamID, keyID: keyID, audiences: [audience], clock: clock)
    }

    /// - Parameters:
    ///   - audiences: the accepted `aud` values (an Apple ID server accepts Apple's issuer and its own).
    ///   - issuedAtSkew: how far in the future `iat` may be (``ClientSecretRulebook/defaultIssuedAtSkew``).
    public init(
        key: Key? = nil, clientID: String? = nil, teamID: String? = nil, keyID: String? = nil, audiences: Set<String>,
        issuedAtSkew: Int = ClientSecretRulebook.defaultIssuedAtSkew, clock: @escaping @Sendable () -> Date = { Date() }
    ) throws {
        switch key {
        case .none: publicKey = nil
        case .publicKey(let key): publicKey = key
        case .publicKeyPEM(let pem):
            guard let key = try? P256.Signing.PublicKey(pemRepresentation: pem) else { throw KeyError.notAP256Key }
            publicKey = key
        case .privateKeyPEM(let pem):
            guard let key = try? P256.Signing.PrivateKey(pemRepresentation: pem) else { throw KeyError.notAP256Key }
            publicKey = key.publicKey
        }
        self.clientID = clientID
        self.teamID = teamID
        self.keyID = keyID
        self.audiences = audiences
        self.issuedAtSkew = issuedAtSkew
        self.clock = clock
    }

    /// ES256 as Apple checks it: P-256 ECDSA over SHA-256 of `signingInput`, the signature in raw
    /// `R||S` form (JOSE, IEEE P1363: exactly 64 bytes). DER signatures are refused.
    public static func isValidES256Signature(_ signature: [UInt8], signingInput: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        ClientSecretRulebook.isValidES256Signature(signature, signingInput: signingInput, publicKey: publicKey)
    }

    /// Judges `secret` against every rule of spec §5 at the inspector's clock.
    public func inspect(_ secret: String) -> Report {
        let reading = ClientSecretReading(secret)
        let rulebook = ClientSecretRulebook(
            clientID: clientID, teamID: teamID, keyID: keyID, audiences: audiences, publicKey: publicKey, issuedAtSkew: issuedAtSkew)
        let now = Int(clock().timeIntervalSince1970.rounded(.down))
        let rules = rulebook.verdicts(on: reading, now: now).map {
            Rule(id: $0.rule, name: $0.rule.rawValue, passed: $0.passed, explanation: $0.explanation)
        }
        let header = reading.header.map { Header(algorithm: $0.algorithm, keyID: $0.keyID, type: $0.type) }
        let claims = reading.claims.map { claims in
            Claims(
                issuer: claims.issuer.value, subject: claims.subject.value,
                audience: claims.audience.value.flatMap { if case .string(let text) = $0 { text } else { nil } },
                issuedAt: claims.issuedAt.value, expiresAt: claims.expiresAt.value)
        }
        return Report(rules: rules, header: header, claims: claims)
    }
}

extension ClientSecretInspector.KeyError: MatchableError {}
