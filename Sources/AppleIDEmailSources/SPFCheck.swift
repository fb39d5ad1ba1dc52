import AppleIDProvider

/// The check the portal's e-mail source table shows (spec §11): mail from a source passes the
/// relay's SPF check only if the domain of the source publishes an SPF policy. A domain must have
/// exactly one TXT record that starts with `v=spf1` (RFC 7208 §4.5: none is "none", several is a
/// permanent error). Which hosts the policy allows depends on the sending host, which the console
/// does not know, so the check stops at the record.
package enum SPFCheck {
    /// The domain whose SPF record counts: the source itself, or the domain of an address.
    package static func domain(of source: String) -> String {
        guard let at = source.lastIndex(of: "@") else { return source }
        return String(source[source.index(after: at)...])
    }

    static func status(of answer: TXTAnswer) -> EmailSource.Check {
        guard case .records(let records) = answer else { return .spfMissing }
        // RFC 7208 §4.5: the version section is matched case-insensitively, and "v=spf1" alone is a record.
        let spf = records.filter { record in
            let lowered = record.lowercased()
            return lowered == "v=spf1" || lowered.hasPrefix("v=spf1 ")
        }
        switch spf.count {
        case 0: return .spfMissing
        case 1: return .verified
        default: return .spfInvalid
        }
    }
}
