import Foundation

/// Looks up the TXT records of a domain name (RFC 1035 §3.3.14). The engine holds it for the SPF
/// check of e-mail sources (`AppleIDEmailSources`) and the relay's SPF evaluation; the server injects
/// a resolver that speaks DNS, tests inject their own.
public protocol TXTResolver: Sendable {
    /// The name's TXT records, each with its character-strings joined (RFC 7208 §3.3).
    func txtRecords(of domain: String) async throws(TXTLookupError) -> TXTAnswer
}

/// What the DNS said about a name.
public enum TXTAnswer: Sendable, Hashable {
    /// The name exists; these are its TXT records (possibly none).
    case records([String])
    /// NXDOMAIN: no such name.
    case noSuchName
}

/// Why a lookup gave no answer: no reply in time, a server failure, a malformed reply. The reason
/// names the resolver and the failure, never anything secret.
public struct TXTLookupError: Error, Sendable, Hashable, CustomStringConvertible {
    public let reason: String
    public init(_ reason: String) { self.reason = reason }
    public var description: String { reason }
}

/// The resolver of an engine that was given none: every lookup fails, and says so.
public struct UnconfiguredTXTResolver: TXTResolver {
    public init() {}
    public func txtRecords(of domain: String) async throws(TXTLookupError) -> TXTAnswer {
        throw TXTLookupError("no DNS resolver is configured")
    }
}
