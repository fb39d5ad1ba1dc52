import AppleIDProtocol

/// What the `user` form field of the first authorization brings: the name the user chose to share.
///
/// The field is not signed: anyone who can post to your callback can write anything into it. Use it
/// only for what Apple gives nowhere else, the name, and take the e-mail from the verified identity
/// token (``VerifiedIdentityToken/email``). An e-mail in the field that differs from the token's is
/// dropped and flagged.
public struct FirstAuthorizationProfile: Sendable, Hashable, Codable {
    /// The name, as the user edited it on the consent page; `nil` when the name scope was not shared.
    public var name: AuthorizedUser.Name?
    /// The unsigned field carried an e-mail other than the identity token's: a forged or tampered
    /// callback, or a bug. The e-mail was dropped; log it and trust ``VerifiedIdentityToken/email``.
    public var unsignedEmailDiffered: Bool

    public init(name: AuthorizedUser.Name?, unsignedEmailDiffered: Bool = false) {
        self.name = name
        self.unsignedEmailDiffered = unsignedEmailDiffered
    }

    /// The profile of a `user` field, checked against the verified token's e-mail.
    init(_ user: AuthorizedUser, verifiedEmail: String?) {
        let differs = user.email.map { $0.lowercased() != verifiedEmail?.lowercased() } ?? false
        self.init(name: user.name, unsignedEmailDiffered: differs)
    }
}
