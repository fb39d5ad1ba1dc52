import Crypto
import Foundation
import _CryptoExtras

/// Why the private key of ``AppleCredentials`` does not load, named so that it can be fixed: each
/// member is a mistake seen in real deployments, and its description says what to do instead.
///
/// A struct with static members, as ``IdentityTokenError``, so that a new mistake breaks no caller:
/// `catch PrivateKeyError.escapedNewlines`, compare with `==`, or `error.kind == .wrongCurve`.
public struct PrivateKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The mistake; new kinds may be added.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        public let description: String
        private init(_ name: String) { description = name }

        public static let escapedNewlines = Kind("escapedNewlines")
        public static let missingPEMArmour = Kind("missingPEMArmour")
        public static let filePath = Kind("filePath")
        public static let wrongCurve = Kind("wrongCurve")
        public static let publicKey = Kind("publicKey")
        public static let rsaKey = Kind("rsaKey")
        public static let encrypted = Kind("encrypted")
        public static let certificate = Kind("certificate")
        public static let unreadable = Kind("unreadable")
    }

    public let kind: Kind
    /// For ``Kind/filePath``, the path; for ``Kind/wrongCurve``, the curve.
    public let detail: String?
    public let description: String

    private init(_ kind: Kind, _ description: String, detail: String? = nil) {
        self.kind = kind
        self.description = description
        self.detail = detail
    }

    private static let expected = "the contents of AuthKey_<KeyID>.p8, the P-256 key Apple let you download once"

    /// The PEM holds the two characters `\n` instead of line breaks (an escaped environment
    /// variable or JSON string).
    public static let escapedNewlines = Self(
        .escapedNewlines,
        #"the key holds the characters \n where line breaks belong (an escaped environment variable or JSON string): "#
            + #"turn each \n back into a line break, e.g. pem.replacingOccurrences(of: "\\n", with: "\n")"#)
    /// Base64 of the key without the `-----BEGIN PRIVATE KEY-----` and `-----END PRIVATE KEY-----` lines.
    public static let missingPEMArmour = Self(
        .missingPEMArmour,
        "the key is base64 without its PEM armour: keep the -----BEGIN PRIVATE KEY----- and -----END PRIVATE KEY----- lines "
            + "of the .p8 file around it")
    /// A file path was passed where the file's contents belong.
    public static func filePath(_ path: String) -> Self {
        Self(
            .filePath,
            "the key is a file path (\(path)), not the file's contents: pass \(expected), e.g. try String(contentsOfFile: path, encoding: .utf8)",
            detail: path)
    }
    /// An EC key on another curve (`P-384`, `P-521`); Apple's keys are P-256.
    public static func wrongCurve(_ curve: String) -> Self {
        Self(.wrongCurve, "the key is an EC \(curve) key; Sign in with Apple signs with P-256 (ES256): pass \(expected)", detail: curve)
    }
    /// A public key: the client secret is signed with the private key.
    public static let publicKey = Self(.publicKey, "the key is a public key; the client secret is signed with the private key: pass \(expected)")
    /// An RSA key; Apple's keys are EC P-256.
    public static let rsaKey = Self(.rsaKey, "the key is an RSA key; Sign in with Apple signs with EC P-256 (ES256): pass \(expected)")
    /// A password-protected PKCS#8 key.
    public static let encrypted = Self(.encrypted, "the key is encrypted (ENCRYPTED PRIVATE KEY); Apple's .p8 is not: pass \(expected)")
    /// A certificate, not a key.
    public static let certificate = Self(.certificate, "the PEM is a certificate, not a private key: pass \(expected)")
    /// Not a key in any form recognised here.
    public static let unreadable = Self(.unreadable, "the key is not a PEM-encoded PKCS#8 EC P-256 private key: pass \(expected)")

    /// Names what `text` is, given that it did not load as a P-256 private key.
    static func diagnose(_ text: String) -> PrivateKeyError {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.contains("-----BEGIN") {
            if trimmed.contains(#"\n"#) { return .escapedNewlines }
            let label = trimmed.split(separator: "\n").first.map(String.init) ?? ""
            if label.contains("PUBLIC KEY") { return .publicKey }
            if label.contains("CERTIFICATE") { return .certificate }
            if label.contains("ENCRYPTED") { return .encrypted }
            if label.contains("RSA") { return .rsaKey }
            return kind(pem: trimmed) ?? .unreadable
        }
        let compact = trimmed.filter { !$0.isWhitespace }
        if let der = Data(base64Encoded: compact), !der.isEmpty {
            if (try? P256.Signing.PrivateKey(derRepresentation: der)) != nil { return .missingPEMArmour }
            return kind(der: der) ?? .unreadable
        }
        let looksLikePath =
            trimmed.hasPrefix("/") || trimmed.hasPrefix("~") || trimmed.hasPrefix("./") || trimmed.hasSuffix(".p8")
            || trimmed.hasSuffix(".pem")
        if looksLikePath && !trimmed.contains("\n") { return .filePath(trimmed) }
        return .unreadable
    }

    private static func kind(pem: String) -> PrivateKeyError? {
        if (try? P384.Signing.PrivateKey(pemRepresentation: pem)) != nil { return .wrongCurve("P-384") }
        if (try? P521.Signing.PrivateKey(pemRepresentation: pem)) != nil { return .wrongCurve("P-521") }
        if (try? _RSA.Signing.PrivateKey(pemRepresentation: pem)) != nil { return .rsaKey }
        return nil
    }

    private static func kind(der: Data) -> PrivateKeyError? {
        if (try? P384.Signing.PrivateKey(derRepresentation: der)) != nil { return .wrongCurve("P-384") }
        if (try? P521.Signing.PrivateKey(derRepresentation: der)) != nil { return .wrongCurve("P-521") }
        if (try? _RSA.Signing.PrivateKey(derRepresentation: der)) != nil { return .rsaKey }
        if (try? P256.Signing.PublicKey(derRepresentation: der)) != nil { return .publicKey }
        return nil
    }
}

extension AppleCredentials {
    /// The P-256 private key of ``privateKeyPEM``, or the ``PrivateKeyError`` that names why it does not load.
    public func signingKey() throws -> P256.Signing.PrivateKey {
        do {
            return try P256.Signing.PrivateKey(pemRepresentation: privateKeyPEM)
        } catch {
            throw PrivateKeyError.diagnose(privateKeyPEM)
        }
    }
}

extension PrivateKeyError: MatchableError {}
