import AppleIDEmailSources
import AppleIDProvider
import Foundation
import SMTPWire

extension MailRelay {
    /// Beyond the loopback, a sender is who it says only if the connecting address passes the SPF
    /// policy of the envelope sender's domain (RFC 7208); the listener asks before the first
    /// recipient, so an unauthenticated client never reaches DATA. `nil`: authenticated; otherwise
    /// the refusal, with RFC 7372's codes (5.7.23 not allowed, 5.7.24 no policy that can be read,
    /// 4.7.24 the lookup failed for now).
    public func authenticateSender(_ sender: String, clientAddress: String) async -> SMTPReply? {
        let domain = SPFCheck.domain(of: sender).lowercased()
        guard sender.contains("@"), !domain.isEmpty else {
            return SMTPReply(550, "5.7.23 A sender without a domain cannot be authenticated: this relay checks SPF beyond the loopback")
        }
        guard let address = IPAddress(clientAddress) else {
            return SMTPReply(550, "5.7.23 The connecting address cannot be checked against the SPF policy of \(domain)")
        }
        let result = await SPFEvaluator(resolver: provider.txtResolver).check(address: address, domain: domain)
        switch result {
        case .pass: return nil
        case .temperror(let why):
            provider.logger.notice("SPF check could not finish", metadata: ["domain": "\(domain)", "reason": "\(why)"])
            return SMTPReply(451, "4.7.24 The SPF check of \(domain) could not finish; try again later")
        case .permerror(let why): return SMTPReply(550, "5.7.24 SPF policy of \(domain) cannot be evaluated: \(why)")
        case .none: return SMTPReply(550, "5.7.23 \(domain) publishes no SPF policy: \(clientAddress) is not an authenticated sender for it")
        case .fail, .softfail, .neutral:
            return SMTPReply(550, "5.7.23 \(clientAddress) is not allowed to send mail from \(domain) (SPF \(result))")
        }
    }
}
