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
/// Each rule is judged on its own, so a secret that breaks one rule fails exactly that rule.
public struct ClientSecretInspector: Sendable {
    /// The key the signature is checked with.
    public enum Key: Sendable {
        /// A `-----BEGIN PUBLIC KEY-----` PEM (SPKI, P-256).
        case publicKeyPEM(String)
        /// The `AuthKey_<KeyID>.p8` PEM; the public key is derived from it.
        case privateKeyPEM(String)
        case publicKey(P256.Signing.PublicKey)
    }

    public enum KeyError: Error, Sendable, Hashable, CustomStringConvertible {
        case notAP256Key

        public var description: String { "the key is not a PEM-encoded P-256 key" }
    }

    /// Apple's rules for a client secret, in the order a report lists them; the raw value is the label.
    public enum RuleID: String, Sendable, Hashable, CaseIterable {
        case structure
        case algorithm = "alg"
        case keyID = "kid"
        case issuer = "iss"
        case subject = "sub"
        case audience = "aud"
        case expiry = "exp"
        case issuedAt = "iat"
        case lifetime
        case signatureEncoding = "signature encoding"
        case signature
    }

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
    public let audience: String
    let clock: @Sendable () -> Date

    /// - Parameters:
    ///   - key: checks the signature; without it the `signature` rule fails as not checked.
    ///   - clientID, teamID, keyID: the expected `sub`, `iss` and `kid`; without them only their shape is checked.
    ///   - audience: the expected `aud`; Apple's is `https://appleid.apple.com`.
    public init(
        key: Key? = nil, clientID: String? = nil, teamID: String? = nil, keyID: String? = nil,
        audience: String = "https://appleid.apple.com", clock: @escaping @Sendable () -> Date = { Date() }
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
        self.audience = audience
        self.clock = clock
    }

    /// ES256 as Apple checks it: P-256 ECDSA over SHA-256 of `signingInput`, the signature in raw
    /// `R||S` form (JOSE, IEEE P1363: exactly 64 bytes). DER signatures are refused.
    public static func isValidES256Signature(_ signature: [UInt8], signingInput: [UInt8], publicKey: P256.Signing.PublicKey) -> Bool {
        guard signature.count == 64, let parsed = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
        return publicKey.isValidSignature(parsed, for: SHA256.hash(data: signingInput))
    }

    /// Judges `secret` against every rule of spec §5 at the inspector's clock.
    public func inspect(_ secret: String) -> Report {
        let segments = secret.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        let header = Self.object(segments, 0).map { Header(algorithm: $0["alg"] as? String, keyID: $0["kid"] as? String, type: $0["typ"] as? String) }
        let claims = Self.object(segments, 1).map {
            Claims(
                issuer: $0["iss"] as? String, subject: $0["sub"] as? String, audience: $0["aud"] as? String,
                issuedAt: $0["iat"] as? Int, expiresAt: $0["exp"] as? Int)
        }
        let now = Int(clock().timeIntervalSince1970.rounded(.down))
        let rules = RuleID.allCases.map { id in
            let (passed, explanation): (Bool, String) =
                switch id {
                case .structure: structure(segments, header, claims)
                case .algorithm:
                    header?.algorithm == "ES256" ? (true, "alg is ES256") : (false, "alg is \(Self.quoted(header?.algorithm)); Apple requires ES256")
                case .keyID: identifier("kid", header?.keyID, expected: keyID, what: "Key ID")
                case .issuer: identifier("iss", claims?.issuer, expected: teamID, what: "Team ID")
                case .subject: subject(claims?.subject)
                case .audience:
                    WireMatch.exact(claims?.audience, audience)
                        ? (true, "aud is \(audience)") : (false, "aud is \(Self.quoted(claims?.audience)); expected \(audience)")
                case .expiry: expiry(claims?.expiresAt, now: now)
                case .issuedAt: issuedAt(claims?.issuedAt, now: now)
                case .lifetime: lifetime(claims)
                case .signatureEncoding: signatureEncoding(segments)
                case .signature: signature(segments)
                }
            return Rule(id: id, name: id.rawValue, passed: passed, explanation: explanation)
        }
        return Report(rules: rules, header: header, claims: claims)
    }

    private func structure(_ segments: [String], _ header: Header?, _ claims: Claims?) -> (Bool, String) {
        guard segments.count == 3 else { return (false, "a compact JWS has 3 segments, found \(segments.count)") }
        guard header != nil else { return (false, "the header is not base64url JSON") }
        guard claims != nil else { return (false, "the payload is not base64url JSON") }
        return (true, "a compact JWS with a JSON header and claims")
    }

    /// `kid` and `iss`: a 10-character identifier, equal to the expected one when given.
    private func identifier(_ name: String, _ value: String?, expected: String?, what: String) -> (Bool, String) {
        guard let value else { return (false, "\(name) is missing or not a string; Apple requires the 10-character \(what)") }
        guard value.count == 10 else { return (false, "\(name) \"\(value)\" has \(value.count) characters; a \(what) has 10") }
        if let expected, !WireMatch.exact(value, expected) { return (false, "\(name) is \"\(value)\", expected the \(what) \"\(expected)\"") }
        return (true, "\(name) is the \(what) \"\(value)\"" + (expected == nil ? " (10 characters; none was expected)" : ""))
    }

    private func subject(_ sub: String?) -> (Bool, String) {
        guard let sub, !sub.isEmpty else { return (false, "sub is \(Self.quoted(sub)); Apple requires the client_id") }
        guard let clientID else { return (true, "sub is \"\(sub)\" (no client ID was expected; it must equal the request's client_id)") }
        guard sub == clientID else { return (false, "sub is \"\(sub)\", expected the client ID \"\(clientID)\" (case-sensitive)") }
        return (true, "sub is the client ID \"\(sub)\"")
    }

    private func expiry(_ exp: Int?, now: Int) -> (Bool, String) {
        guard let exp else { return (false, "exp is missing or not an integer") }
        guard exp > now else { return (false, "expired \(Self.duration(now - exp)) ago (exp \(exp), now \(now))") }
        guard exp - now <= ClientSecretClaims.maximumLifetime else {
            return (false, "exp is \(Self.duration(exp - now)) from now; Apple refuses more than \(Self.maximumText)")
        }
        return (true, "expires in \(Self.duration(exp - now)) (exp \(exp))")
    }

    private func issuedAt(_ iat: Int?, now: Int) -> (Bool, String) {
        guard let iat else { return (false, "iat is missing or not an integer") }
        guard iat <= now else { return (false, "iat is \(Self.duration(iat - now)) in the future (iat \(iat), now \(now))") }
        return (true, "issued \(Self.duration(now - iat)) ago (iat \(iat))")
    }

    private func lifetime(_ claims: Claims?) -> (Bool, String) {
        guard let iat = claims?.issuedAt, let exp = claims?.expiresAt else { return (false, "iat or exp is missing: the lifetime is unknown") }
        guard exp > iat else { return (false, "exp is not after iat") }
        let text = "exp is \(Self.duration(exp - iat)) after iat (\(Self.grouped(exp - iat)) s); Apple's maximum is \(Self.maximumText)"
        return (exp - iat <= ClientSecretClaims.maximumLifetime, text)
    }

    private func signatureEncoding(_ segments: [String]) -> (Bool, String) {
        guard let signature = Self.signatureBytes(segments) else { return (false, "the signature is missing or not base64url") }
        if signature.count == 64 { return (true, "raw R||S, 64 bytes") }
        if Self.derSignature(signature) != nil { return (false, "DER-encoded signature; Apple requires raw R||S (64 bytes)") }
        return (false, "\(signature.count) bytes; Apple requires raw R||S (64 bytes)")
    }

    private func signature(_ segments: [String]) -> (Bool, String) {
        guard let signature = Self.signatureBytes(segments) else { return (false, "the signature cannot be read") }
        guard let publicKey else { return (false, "not checked: no public or private key was given") }
        let signingInput = Array((segments[0] + "." + segments[1]).utf8)
        // A DER signature is judged apart from its encoding, so that it fails only the encoding rule.
        if let der = Self.derSignature(signature) {
            guard publicKey.isValidSignature(der, for: SHA256.hash(data: signingInput)) else {
                return (false, "does not verify with the key (read as DER)")
            }
            return (true, "verifies with the key once converted from DER (Apple does not convert it)")
        }
        guard Self.isValidES256Signature(signature, signingInput: signingInput, publicKey: publicKey) else {
            return (false, "does not verify with the key: another key signed it, or the secret was altered")
        }
        return (true, "the ES256 signature verifies with the key")
    }

    private static func signatureBytes(_ segments: [String]) -> [UInt8]? {
        segments.count == 3 ? try? Base64URL.decode(segments[2]) : nil
    }

    private static func derSignature(_ bytes: [UInt8]) -> P256.Signing.ECDSASignature? {
        bytes.count != 64 ? try? P256.Signing.ECDSASignature(derRepresentation: bytes) : nil
    }

    private static func quoted(_ value: String?) -> String { value.map { "\"\($0)\"" } ?? "missing or not a string" }

    /// Segment `index` of a three-segment JWS as a JSON object.
    private static func object(_ segments: [String], _ index: Int) -> [String: Any]? {
        guard segments.count == 3, let bytes = try? Base64URL.decode(segments[index]) else { return nil }
        return try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
    }

    static let maximumText = "182.6 days (15,777,000 s)"

    /// `15777000` → `15,777,000` (positive values).
    static func grouped(_ value: Int) -> String {
        var text = String(value)
        for index in stride(from: text.count - 3, to: 0, by: -3) { text.insert(",", at: text.index(text.startIndex, offsetBy: index)) }
        return text
    }

    /// `181 days`, `182.6 days`, `5 h`, `90 s`: readable, and exact when whole.
    static func duration(_ seconds: Int) -> String {
        let units: [(Int, String)] = [(86_400, "days"), (3600, "h"), (60, "min")]
        for (size, unit) in units where seconds >= size {
            let value = Double(seconds) / Double(size)
            let text = seconds % size == 0 ? String(seconds / size) : String(format: "%.1f", value)
            return text + " " + (unit == "days" && text == "1" ? "day" : unit)
        }
        return "\(seconds) s"
    }
}
