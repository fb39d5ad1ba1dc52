/// The answer of `POST /auth/usermigrationinfo` (spec §17.4), in the members' order of Apple's
/// examples; `is_private_email` is a JSON boolean here.
public enum UserMigrationResponse: Sendable, Hashable {
    /// To the sending team: the user's transfer identifier.
    case transferSubject(Subject)
    /// To the recipient team: the user's new `sub`, and the new relay address if the user hid the e-mail.
    case migratedUser(subject: Subject, relayEmail: String?)
}

extension UserMigrationResponse: OrderedJSONObject {
    public var orderedMembers: [(key: String, value: JSONMemberValue)] {
        switch self {
        case .transferSubject(let subject):
            return [("transfer_sub", .string(subject.rawValue))]
        case .migratedUser(let subject, let relayEmail):
            var members: [(key: String, value: JSONMemberValue)] = [("sub", .string(subject.rawValue))]
            if let relayEmail { members += [("email", .string(relayEmail)), ("is_private_email", .boolean(true))] }
            return members
        }
    }
}
