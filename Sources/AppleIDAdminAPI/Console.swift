import Foundation

/// `POST /admin/developers` and `POST /admin/teams/{team}/developers`: the operator's direct path.
public struct DeveloperOrder: Codable, Sendable, Equatable {
    public var email: String
    public var name: String?
    public var password: String?
    public var teamIDs: [String]?

    public init(email: String, name: String? = nil, password: String? = nil, teamIDs: [String]? = nil) {
        self.email = email
        self.name = name
        self.password = password
        self.teamIDs = teamIDs
    }

    enum CodingKeys: String, CodingKey {
        case email, name, password
        case teamIDs = "team_ids"
    }
}

/// `POST /admin/teams/{team}/email-sources`: domains or addresses, comma-delimited as the portal takes them.
public struct SourcesOrder: Codable, Sendable, Equatable {
    public var sources: String
    public init(sources: String) { self.sources = sources }
}

/// `POST /admin/teams/{team}/invitations`.
public struct InvitationOrder: Codable, Sendable, Equatable {
    public var email: String
    public init(email: String) { self.email = email }
}

/// A developer as the admin API shows one: never the password hash.
public struct DeveloperSummary: Codable, Sendable, Equatable {
    public var id: String
    public var email: String
    public var name: String
    public var teamIDs: [String]

    public init(id: String, email: String, name: String, teamIDs: [String]) {
        self.id = id
        self.email = email
        self.name = name
        self.teamIDs = teamIDs
    }

    enum CodingKeys: String, CodingKey {
        case id, email, name
        case teamIDs = "team_ids"
    }
}

/// A new invitation: its link (the only time it is shown) and when it expires.
public struct InvitationSummary: Codable, Sendable, Equatable {
    public var teamID: String
    public var email: String
    /// The message that carries the link to the invited address (`GET /admin/mail/{id}`): the link
    /// itself is in no answer.
    public var mailID: String
    public var expiresAt: Date

    public init(teamID: String, email: String, mailID: String, expiresAt: Date) {
        self.teamID = teamID
        self.email = email
        self.mailID = mailID
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case email
        case teamID = "team_id"
        case mailID = "mail_id"
        case expiresAt = "expires_at"
    }
}

/// A pending invitation as listed: never its link.
public struct PendingInvitationSummary: Codable, Sendable, Equatable {
    public var email: String
    public var invitedBy: String
    public var expiresAt: Date

    public init(email: String, invitedBy: String, expiresAt: Date) {
        self.email = email
        self.invitedBy = invitedBy
        self.expiresAt = expiresAt
    }

    enum CodingKeys: String, CodingKey {
        case email
        case invitedBy = "invited_by"
        case expiresAt = "expires_at"
    }
}

/// `GET /admin/teams/{team}/invitations`.
public struct PendingInvitationList: Codable, Sendable, Equatable {
    public var invitations: [PendingInvitationSummary]
    public init(invitations: [PendingInvitationSummary]) { self.invitations = invitations }
}

/// An e-mail source and its SPF check.
public struct SourceSummary: Codable, Sendable, Equatable {
    public var value: String
    public var check: String
    public var checkedAt: Date?

    public init(value: String, check: String, checkedAt: Date?) {
        self.value = value
        self.check = check
        self.checkedAt = checkedAt
    }

    enum CodingKeys: String, CodingKey {
        case value, check
        case checkedAt = "checked_at"
    }
}

/// A team's e-mail sources, after adding or checking them.
public struct SourceList: Codable, Sendable, Equatable {
    public var emailSources: [SourceSummary]
    public init(emailSources: [SourceSummary]) { self.emailSources = emailSources }
    enum CodingKeys: String, CodingKey { case emailSources = "email_sources" }
}

/// `POST /admin/app-groups/{group}/test-notification`: the notification put in the outbox.
public struct TestNotificationView: Codable, Sendable, Equatable {
    /// The JWT ID of the signed notification.
    public var jti: String
    public var aud: String
    public var type: String

    public init(jti: String, aud: String, type: String) {
        self.jti = jti
        self.aud = aud
        self.type = type
    }
}
