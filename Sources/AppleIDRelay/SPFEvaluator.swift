import AppleIDProvider
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The result of RFC 7208's `check_host()` (§2.6).
public enum SPFResult: Sendable, Hashable {
    case pass, fail, softfail, neutral, none
    /// A lookup failed for now (no answer in time, a server failure): the sender may try later.
    case temperror(String)
    /// The domain's policy cannot be read or uses what this check does not evaluate.
    case permerror(String)
}

/// RFC 7208 `check_host()` for the relay's senders when SMTP listens beyond the loopback: the
/// connecting address must be one the envelope sender's domain lists. The resolver speaks TXT only,
/// so the mechanisms that need other records (`a`, `mx`, `ptr`, `exists`) and macros are a
/// permanent error, never a pass: the check fails closed, and a sender lists its addresses with
/// `ip4:`/`ip6:` (directly or through `include:`/`redirect=`).
struct SPFEvaluator: Sendable {
    let resolver: any TXTResolver
    /// RFC 7208 §4.6.4: at most 10 terms that cause DNS lookups.
    static let lookupLimit = 10

    func check(address: IPAddress, domain: String) async -> SPFResult {
        var lookups = 0
        return await checkHost(address, domain: domain.lowercased(), lookups: &lookups)
    }

    private func checkHost(_ address: IPAddress, domain: String, lookups: inout Int) async -> SPFResult {
        let answer: TXTAnswer
        do throws(TXTLookupError) {
            answer = try await resolver.txtRecords(of: domain)
        } catch {
            return .temperror("the SPF lookup of \(domain) failed")
        }
        guard case .records(let records) = answer else { return .none }
        let policies = records.filter { record in
            let lowered = record.lowercased()
            return lowered == "v=spf1" || lowered.hasPrefix("v=spf1 ")
        }
        guard policies.count <= 1 else { return .permerror("\(domain) publishes more than one SPF record") }
        guard let policy = policies.first else { return .none }
        var redirect: String?
        for term in policy.split(separator: " ").dropFirst() {
            let lowered = term.lowercased()
            if let equals = lowered.firstIndex(of: "="), !lowered[..<equals].contains(":"), !lowered[..<equals].contains("/") {
                // A modifier (§6): redirect counts, exp and unknown ones are ignored.
                if lowered[..<equals] == "redirect" { redirect = String(lowered[lowered.index(after: equals)...]) }
                continue
            }
            var mechanism = Substring(lowered)
            var qualified = SPFResult.pass
            switch mechanism.first {
            case "+": mechanism = mechanism.dropFirst()
            case "-": (qualified, mechanism) = (.fail, mechanism.dropFirst())
            case "~": (qualified, mechanism) = (.softfail, mechanism.dropFirst())
            case "?": (qualified, mechanism) = (.neutral, mechanism.dropFirst())
            default: break
            }
            let name = mechanism.prefix { $0 != ":" && $0 != "/" }
            let argument = mechanism.dropFirst(name.count).drop { $0 == ":" }
            let matched: Bool
            switch name {
            case "all": matched = true
            case "ip4", "ip6":
                guard let network = IPNetwork(String(argument), family: name == "ip4" ? .v4 : .v6) else {
                    return .permerror("\(domain): \(term) is not an address range")
                }
                matched = network.contains(address)
            case "include":
                guard !argument.isEmpty, !argument.contains("%") else { return .permerror("\(domain): \(term) names no domain this check reads") }
                lookups += 1
                guard lookups <= Self.lookupLimit else { return .permerror("more than \(Self.lookupLimit) SPF lookups") }
                switch await checkHost(address, domain: String(argument), lookups: &lookups) {
                case .pass: matched = true
                case .fail, .softfail, .neutral: matched = false
                case .temperror(let why): return .temperror(why)
                case .permerror(let why): return .permerror(why)
                case .none: return .permerror("\(domain): \(term) has no SPF record")
                }
            case "a", "mx", "ptr", "exists":
                return .permerror("\(domain): \(term) needs a lookup this relay does not make; list the sending addresses with ip4:/ip6:")
            default:
                return .permerror("\(domain): \(term) is not an SPF mechanism")
            }
            if matched { return qualified }
        }
        if let redirect {
            guard !redirect.isEmpty, !redirect.contains("%") else { return .permerror("\(domain): redirect names no domain this check reads") }
            lookups += 1
            guard lookups <= Self.lookupLimit else { return .permerror("more than \(Self.lookupLimit) SPF lookups") }
            let result = await checkHost(address, domain: redirect, lookups: &lookups)
            return result == .none ? .permerror("\(domain): redirect=\(redirect) has no SPF record") : result
        }
        return .neutral
    }
}

/// An IPv4 or IPv6 address as its bytes; an IPv4-mapped IPv6 address (`::ffff:192.0.2.1`) is the
/// IPv4 address, as a dual-stack socket reports an IPv4 peer.
public struct IPAddress: Sendable, Hashable {
    public enum Family: Sendable { case v4, v6 }
    public let bytes: [UInt8]
    public var family: Family { bytes.count == 4 ? .v4 : .v6 }

    public init?(_ text: String) {
        var v4 = in_addr()
        if inet_pton(AF_INET, text, &v4) == 1 {
            bytes = withUnsafeBytes(of: &v4) { Array($0) }
            return
        }
        var v6 = in6_addr()
        guard inet_pton(AF_INET6, text, &v6) == 1 else { return nil }
        let all = withUnsafeBytes(of: &v6) { Array($0) }
        bytes = all[0..<10].allSatisfy { $0 == 0 } && all[10] == 0xff && all[11] == 0xff ? Array(all[12...]) : all
    }
}

/// `192.0.2.0/24`, `2001:db8::/32`, or one address (its whole length).
struct IPNetwork: Sendable, Hashable {
    let base: IPAddress
    let prefix: Int

    init?(_ text: String, family: IPAddress.Family) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let base = IPAddress(String(parts[0])), base.family == family else { return nil }
        let bits = base.bytes.count * 8
        if parts.count == 2 {
            guard let prefix = Int(parts[1]), (0...bits).contains(prefix), parts[1].allSatisfy(\.isASCII) else { return nil }
            self.prefix = prefix
        } else {
            self.prefix = bits
        }
        self.base = base
    }

    func contains(_ address: IPAddress) -> Bool {
        guard address.family == base.family else { return false }
        var remaining = prefix
        for (mine, theirs) in zip(base.bytes, address.bytes) where remaining > 0 {
            let mask: UInt8 = remaining >= 8 ? 0xff : ~(0xff >> UInt8(remaining))
            guard mine & mask == theirs & mask else { return false }
            remaining -= 8
        }
        return true
    }
}
