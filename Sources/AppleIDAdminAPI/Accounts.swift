import Foundation

/// `POST /admin/users` and `PATCH /admin/users/{apple_id}`: the fields given are set, the others
/// left as they are (creating requires `apple_id` and `password`).
public struct AccountOrder: Codable, Sendable, Equatable {
    public var appleID: String?
    public var password: String?
    public var firstName: String?
    public var lastName: String?
    public var email: String?
    /// `real_user_status`: 0 unsupported, 1 unknown, 2 likely real.
    public var realUserStatus: Int?
    public var twoFactorEnabled: Bool?
    public var additionalEmails: [String]?

    public init(
        appleID: String? = nil, password: String? = nil, firstName: String? = nil, lastName: String? = nil, email: String? = nil,
        realUserStatus: Int? = nil, twoFactorEnabled: Bool? = nil, additionalEmails: [String]? = nil
    ) {
        self.appleID = appleID
        self.password = password
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.realUserStatus = realUserStatus
        self.twoFactorEnabled = twoFactorEnabled
        self.additionalEmails = additionalEmails
    }

    enum CodingKeys: String, CodingKey {
        case password, email
        case additionalEmails = "additional_emails"
        case twoFactorEnabled = "two_factor_enabled"
        case appleID = "apple_id"
        case firstName = "first_name"
        case lastName = "last_name"
        case realUserStatus = "real_user_status"
    }
}

/// An Apple ID as the admin API shows it: never the password hash or the TOTP secret.
public struct AccountView: Codable, Sendable, Equatable {
    public var appleID: String
    public var firstName: String
    public var lastName: String
    public var email: String
    public var additionalEmails: [String]
    public var realUserStatus: Int
    public var deleted: Bool
    public var twoFactorEnabled: Bool
    public var currentSecondFactorCode: String?
    /// The user's `sub` in each team that knows the user (what `credential-state --user` takes).
    public var subjects: [TeamSubject]?

    public struct TeamSubject: Codable, Sendable, Equatable {
        public var teamID: String
        public var sub: String

        public init(teamID: String, sub: String) {
            self.teamID = teamID
            self.sub = sub
        }

        enum CodingKeys: String, CodingKey {
            case sub
            case teamID = "team_id"
        }
    }

    public init(
        appleID: String, firstName: String, lastName: String, email: String, additionalEmails: [String], realUserStatus: Int, deleted: Bool,
        twoFactorEnabled: Bool, currentSecondFactorCode: String?, subjects: [TeamSubject]? = nil
    ) {
        self.appleID = appleID
        self.firstName = firstName
        self.lastName = lastName
        self.email = email
        self.additionalEmails = additionalEmails
        self.realUserStatus = realUserStatus
        self.deleted = deleted
        self.twoFactorEnabled = twoFactorEnabled
        self.currentSecondFactorCode = currentSecondFactorCode
        self.subjects = subjects
    }

    enum CodingKeys: String, CodingKey {
        case email, deleted
        case additionalEmails = "additional_emails"
        case twoFactorEnabled = "two_factor_enabled"
        case appleID = "apple_id"
        case firstName = "first_name"
        case lastName = "last_name"
        case realUserStatus = "real_user_status"
        case currentSecondFactorCode = "current_two_factor_code"
        case subjects
    }
}

/// `GET /admin/users`.
public struct AccountList: Codable, Sendable, Equatable {
    public var users: [AccountView]
    public init(users: [AccountView]) { self.users = users }
}

/// `POST /admin/clock/advance`: seconds forward, or back when negative.
public struct ClockAdvance: Codable, Sendable, Equatable {
    public var seconds: Double
    public init(seconds: Double) { self.seconds = seconds }
}

/// `POST /admin/clock/set`: an ISO 8601 date and time.
public struct ClockSetting: Codable, Sendable, Equatable {
    public var time: String
    public init(time: String) { self.time = time }
}

/// The server's clock as the admin API shows it.
public struct ClockView: Codable, Sendable, Equatable {
    /// ISO 8601.
    public var now: String
    public var offsetSeconds: Int
    public var shifted: Bool

    public init(now: String, offsetSeconds: Int, shifted: Bool) {
        self.now = now
        self.offsetSeconds = offsetSeconds
        self.shifted = shifted
    }

    enum CodingKeys: String, CodingKey {
        case now, shifted
        case offsetSeconds = "offset_seconds"
    }
}
