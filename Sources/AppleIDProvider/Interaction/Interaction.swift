import AppleIDProtocol
import Foundation

/// A sign-in in progress: the validated request, the browser it belongs to, and how far the
/// user has come (sign-in, two-factor, consent or the short "Continue" confirmation).
public struct Interaction: Codable, Sendable, Hashable, Identifiable {
    public enum Stage: String, Codable, Sendable, Hashable {
        /// Apple ID and password.
        case signIn
        /// The TOTP code.
        case secondFactor
        /// First authorization for the app group: name and e-mail choices.
        case consent
        /// Already authorized and signed in: Apple's short "Continue" page.
        case confirm
        /// A Managed Apple ID whose organization does not allow the app: the page says so, and its
        /// only way on is back to the app with `user_cancelled_authorize` (spec §21 item 2).
        case notAllowed
    }

    public var id: String
    public var request: ValidatedAuthorization
    /// SHA-256 of the browser-binding cookie: the interaction only advances from that browser.
    public var browserBindingHash: String
    /// The value every form of this interaction must echo (CSRF protection).
    public var csrfToken: String
    public var stage: Stage
    public var accountID: String?
    public var authTime: Date?
    public var failedAttempts: Int
    public var createdAt: Date
    public var expiresAt: Date

    public init(
        id: String, request: ValidatedAuthorization, browserBindingHash: String, csrfToken: String, stage: Stage,
        accountID: String? = nil, authTime: Date? = nil, failedAttempts: Int = 0, createdAt: Date, expiresAt: Date
    ) {
        self.id = id
        self.request = request
        self.browserBindingHash = browserBindingHash
        self.csrfToken = csrfToken
        self.stage = stage
        self.accountID = accountID
        self.authTime = authTime
        self.failedAttempts = failedAttempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// A browser in which an Apple ID has signed in (password and second factor). A session of the
/// sign-in pages lets the next authorization skip to consent or "Continue"; one of the account pages
/// opens `/account` only. Neither opens the other's pages, as on Apple's.
public struct BrowserSession: Codable, Sendable, Hashable {
    /// Which pages a session was signed in on, and so which ones it opens.
    public enum Purpose: String, Codable, Sendable, Hashable {
        /// The authorization's sign-in pages (`/auth/authorize`).
        case signInPages = "sign-in"
        /// The Apple ID user's own account pages (`/account`).
        case accountPages = "account"
    }

    /// SHA-256 of the session cookie's value; the value itself is never stored.
    public var idHash: String
    public var accountID: String
    public var authTime: Date
    public var expiresAt: Date
    public var purpose: Purpose

    public init(idHash: String, accountID: String, authTime: Date, expiresAt: Date, purpose: Purpose = .signInPages) {
        self.idHash = idHash
        self.accountID = accountID
        self.authTime = authTime
        self.expiresAt = expiresAt
        self.purpose = purpose
    }
}
