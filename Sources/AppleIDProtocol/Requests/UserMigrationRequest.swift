/// The form body of `POST /auth/usermigrationinfo` (spec §17.4): the sending team asks for the
/// `transfer_sub` of a `sub` (with `target`, the recipient's Team ID); the recipient team asks for
/// the new `sub` of a `transfer_sub`.
public struct UserMigrationRequest: Codable, Sendable, Hashable {
    public var subject: String?
    public var target: String?
    public var transferSubject: String?
    public var clientID: String?
    public var clientSecret: String?

    public init(
        subject: String? = nil, target: String? = nil, transferSubject: String? = nil, clientID: String? = nil, clientSecret: String? = nil
    ) {
        self.subject = subject
        self.target = target
        self.transferSubject = transferSubject
        self.clientID = clientID
        self.clientSecret = clientSecret
    }

    enum CodingKeys: String, CodingKey {
        case subject = "sub"
        case target
        case transferSubject = "transfer_sub"
        case clientID = "client_id"
        case clientSecret = "client_secret"
    }
}
