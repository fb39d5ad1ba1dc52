import AppleIDProtocol
import Foundation

/// `POST /admin/native-credentials`: the app's authorization requests and the user's choice on the
/// device's sheet (our extension).
public struct NativeOrder: Codable, Sendable, Equatable {
    public var bundleID: String
    public var appleID: String
    public var scope: String?
    /// The nonce as the app sends it: the SHA-256 (hex) of its raw nonce.
    public var nonce: String?
    /// `apple-id`, `password` or both (default: `apple-id`).
    public var providers: [String]?
    public var existingOnly: Bool?
    /// The earlier spelling of `existing_only`, kept for scripts.
    public var existingCredentialsOnly: Bool?
    /// `apple-id`, `password` or `password:USER`.
    public var pick: String?
    public var hideEmail: Bool?
    /// The user dismisses the sheet: the app gets `ASAuthorizationError.canceled`.
    public var cancel: Bool?

    public init(
        bundleID: String, appleID: String, scope: String? = nil, nonce: String? = nil, providers: [String]? = nil, existingOnly: Bool? = nil,
        existingCredentialsOnly: Bool? = nil, pick: String? = nil, hideEmail: Bool? = nil, cancel: Bool? = nil
    ) {
        self.bundleID = bundleID
        self.appleID = appleID
        self.scope = scope
        self.nonce = nonce
        self.providers = providers
        self.existingOnly = existingOnly
        self.existingCredentialsOnly = existingCredentialsOnly
        self.pick = pick
        self.hideEmail = hideEmail
        self.cancel = cancel
    }

    enum CodingKeys: String, CodingKey {
        case bundleID = "bundle_id"
        case appleID = "apple_id"
        case scope, nonce, providers, pick, cancel
        case existingOnly = "existing_only"
        case existingCredentialsOnly = "existing_credentials_only"
        case hideEmail = "hide_email"
    }
}

/// The fields of `ASAuthorizationAppleIDCredential`, under Apple's property names.
public struct NativeCredential: Codable, Sendable, Equatable {
    /// `apple-id`.
    public var type: NativeCredentialProvider
    public var user: String
    public var identityToken: String
    public var authorizationCode: String
    public var fullName: AuthorizedUser.Name?
    public var email: String?
    public var realUserStatus: Int
    public var authorizedScopes: [String]
    public var offered: [OfferedCredential]

    public init(
        user: String, identityToken: String, authorizationCode: String, fullName: AuthorizedUser.Name?, email: String?, realUserStatus: Int,
        authorizedScopes: [String], offered: [OfferedCredential]
    ) {
        type = .appleID
        self.user = user
        self.identityToken = identityToken
        self.authorizationCode = authorizationCode
        self.fullName = fullName
        self.email = email
        self.realUserStatus = realUserStatus
        self.authorizedScopes = authorizedScopes
        self.offered = offered
    }
}

/// The fields of `ASPasswordCredential`: a password from the device's keychain.
public struct PasswordCredential: Codable, Sendable, Equatable {
    /// `password`.
    public var type: NativeCredentialProvider
    public var user: String
    public var password: String
    public var offered: [OfferedCredential]

    public init(user: String, password: String, offered: [OfferedCredential]) {
        type = .password
        self.user = user
        self.password = password
        self.offered = offered
    }
}

/// What `authorizationController(controller:didCompleteWithError:)` receives: an
/// `ASAuthorizationError` by name and code, and what the sheet offered.
public struct NativeFailure: Codable, Sendable, Equatable {
    public var error: String
    public var code: Int
    public var errorDescription: String
    public var offered: [OfferedCredential]

    public init(error: String, code: Int, errorDescription: String, offered: [OfferedCredential]) {
        self.error = error
        self.code = code
        self.errorDescription = errorDescription
        self.offered = offered
    }

    enum CodingKeys: String, CodingKey {
        case error, code, offered
        case errorDescription = "error_description"
    }
}

/// The credential the sheet handed the app: an Apple ID credential or a saved password, told apart by `type`.
public enum NativeSheetAnswer: Codable, Sendable, Equatable {
    case appleID(NativeCredential)
    case password(PasswordCredential)

    enum CodingKeys: String, CodingKey { case type }

    public init(from decoder: any Decoder) throws {
        let type = try decoder.container(keyedBy: CodingKeys.self).decode(NativeCredentialProvider.self, forKey: .type)
        self = type == .password ? .password(try PasswordCredential(from: decoder)) : .appleID(try NativeCredential(from: decoder))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .appleID(let credential): try credential.encode(to: encoder)
        case .password(let credential): try credential.encode(to: encoder)
        }
    }
}

/// `GET /admin/credential-state`: what `getCredentialState(forUserID:)` answers.
public struct CredentialStateView: Codable, Sendable, Equatable {
    /// `authorized`, `revoked`, `notFound` or `transferred`.
    public var state: String
    public init(state: String) { self.state = state }
}

/// One revocation of the credential-revoked feed.
public struct CredentialEventView: Codable, Sendable, Equatable {
    /// `consent-revoked`, `account-delete` or `account-deleted`.
    public var type: String
    public var subject: String
    public var groupID: String
    public var occurredAt: Date
    public var cursor: String

    public init(type: String, subject: String, groupID: String, occurredAt: Date, cursor: String) {
        self.type = type
        self.subject = subject
        self.groupID = groupID
        self.occurredAt = occurredAt
        self.cursor = cursor
    }

    enum CodingKeys: String, CodingKey {
        case type, cursor
        case subject = "sub"
        case groupID = "group_id"
        case occurredAt = "occurred_at"
    }
}

/// `GET /admin/credential-events`: a page of the feed and where to continue from.
public struct CredentialEventFeed: Codable, Sendable, Equatable {
    public var events: [CredentialEventView]
    /// Pass back as `after`; unchanged when nothing happened.
    public var cursor: String?

    public init(events: [CredentialEventView], cursor: String?) {
        self.events = events
        self.cursor = cursor
    }
}
