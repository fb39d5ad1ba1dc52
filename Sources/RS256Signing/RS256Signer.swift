/// A library that signs RS256: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3).
///
/// PKCS#1 v1.5 signatures are deterministic, so every signer gives the same bytes for the same key
/// and message: which one runs is a matter of speed, never of what a verifier sees.
public protocol RS256Signer: Sendable {
    /// Names the library for the start-up log, for example `OpenSSL 3.0.19 (libcrypto)`.
    var name: String { get }

    /// Hands a private key (PKCS#1 or PKCS#8 DER) to the library once; the key then signs many
    /// messages, from any number of threads.
    func loadKey(derRepresentation: [UInt8]) throws -> any RS256SigningKey
}

/// A private key as one signer holds it, loaded once and released with the last reference.
public protocol RS256SigningKey: Sendable {
    /// The RS256 signature of `message` (SHA-256 is taken here): for a JWS, its signing input.
    func signature(for message: [UInt8]) throws -> [UInt8]
}

/// Why a signer refused a key or a signature.
public struct RS256SigningError: Error, Equatable, CustomStringConvertible {
    public let description: String

    /// The bytes are not an RSA private key the library can read.
    public static let unreadableKey = RS256SigningError(description: "the private key is not an RSA key in DER")
    /// The library failed to sign (it reports no reason that would be safe or useful to show).
    public static let signingFailed = RS256SigningError(description: "RS256 signing failed")
}

/// The CPU's feature flags as Linux lists them (`/proc/cpuinfo`); empty elsewhere.
public enum CPUFlags {
    public static let current: Set<String> = {
        guard let info = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
            let line = info.split(separator: "\n").first(where: { $0.hasPrefix("flags") }),
            let colon = line.firstIndex(of: ":")
        else { return [] }
        return Set(line[line.index(after: colon)...].split(separator: " ").map(String.init))
    }()
}
