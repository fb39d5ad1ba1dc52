import Foundation

/// What one approval writes: the consent of a first authorization, the team identity that has just
/// been given its relay address, the grant and its code. The store writes them together or not at all,
/// so a failure in the middle never leaves a consent without its grant or a grant without its code.
public struct Approval: Sendable {
    /// The consent recorded on a first authorization; `nil` when an earlier one stands.
    public var consent: Consent?
    /// The team identity with a relay address assigned by this approval; `nil` when unchanged.
    public var identity: TeamIdentity?
    public var grant: Grant
    public var code: AuthorizationCodeRecord

    public init(consent: Consent?, identity: TeamIdentity?, grant: Grant, code: AuthorizationCodeRecord) {
        self.consent = consent
        self.identity = identity
        self.grant = grant
        self.code = code
    }
}
