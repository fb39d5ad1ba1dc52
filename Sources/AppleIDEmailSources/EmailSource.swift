import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A domain or address registered to send mail to the team's private relay addresses (spec §11).
public struct EmailSource: Codable, Sendable, Hashable {
    /// The SPF check of the source's domain (see ``AppleIDProvider/checkEmailSources(teamID:)``).
    public enum Check: String, Codable, Sendable, Hashable {
        /// Added and not looked up yet.
        case notChecked = "not-checked"
        /// The domain publishes one SPF record.
        case verified
        /// The domain has no SPF record, or does not exist.
        case spfMissing = "spf-missing"
        /// The domain publishes several SPF records, which RFC 7208 §4.5 makes a permanent error.
        case spfInvalid = "spf-invalid"
        /// The resolver gave no usable answer (timeout, server failure).
        case lookupFailed = "lookup-failed"
    }

    public var teamID: TeamID
    /// A domain name or an e-mail address, lower-cased.
    public var value: String
    public var addedAt: Date
    public var check: Check
    /// When ``check`` was found; `nil` until the first check.
    public var checkedAt: Date?
    /// The DKIM public key registered with the source (an RSA SubjectPublicKeyInfo, base64, as the
    /// `p=` of its DNS record): when set, the relay takes its mail only with a DKIM signature that
    /// verifies with it. `nil`: DKIM is not checked (the default).
    public var dkimPublicKey: String?

    public init(
        teamID: TeamID, value: String, addedAt: Date, check: Check = .notChecked, checkedAt: Date? = nil, dkimPublicKey: String? = nil
    ) {
        self.teamID = teamID
        self.value = value
        self.addedAt = addedAt
        self.check = check
        self.checkedAt = checkedAt
        self.dkimPublicKey = dkimPublicKey
    }

    public var isAddress: Bool { value.contains("@") }
}
