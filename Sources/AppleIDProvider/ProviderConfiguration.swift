import AppleIDProtocol
import Foundation

/// The provider's settings. Defaults follow Apple's current traffic (spec §9.2, §4).
public struct ProviderConfiguration: Sendable {
    /// Apple's own issuer, for relying parties that hard-code it (`siwa serve --issuer apple`).
    public static let appleIssuer = "https://appleid.apple.com"

    /// The `iss` of every token this provider signs.
    public var issuer: String
    /// `--apple-as-of`: speak as Apple did on this day (``AppleDatedChange/timeline``); `nil`: today.
    public var appleAsOf: AppleDate?
    /// Single-use authorization codes live five minutes.
    public var codeLifetime: TimeInterval = 300
    /// `expires_in` of access tokens: always 3600 in Apple's traffic.
    var accessTokenLifetime: Int = 3600
    /// id_token lifetime: 86,400 s in Apple's traffic since 2021 (600 s before).
    public var idTokenLifetime: Int = 86_400
    /// The domain of Hide My Email relay addresses.
    public var relayDomain: String = "privaterelay.appleid.com"
    /// How far in the future a client secret's `iat` may be (clock skew between the two servers).
    var clientSecretClockSkew: TimeInterval = 60
    /// How long a sign-in may take from the first page to the last.
    var interactionLifetime: TimeInterval = 15 * 60
    /// How long a browser stays signed in to its Apple ID.
    public var browserSessionLifetime: TimeInterval = 24 * 3600
    /// Wrong passwords or codes before an interaction is abandoned.
    public var maximumFailedAttempts: Int = 5
    /// When an Apple ID locks after failed attempts, across interactions and the account pages.
    public var signInLock = SignInLockPolicy()
    /// bcrypt cost of new password hashes.
    public var passwordHashCost: UInt8 = 10
    /// How long a registered client, once read, is reused by the token endpoint (0: never cached).
    public var registryCacheLifetime: TimeInterval = 5
    /// The spelling of the account-deletion event: Apple's traffic and libraries say `account-delete`,
    /// Apple's current document `account-deleted` (spec §19 #1).
    public var accountDeletionEvent: NotificationEventType = .accountDelete
    /// Accepts TOTP codes of the previous and next 30-second step as well.
    var secondFactorWindowSteps: Int = 1
    /// Development mode: the console accepts `http://127.0.0.1` and `http://localhost` Return URLs
    /// (marked development-only), which Apple's portal refuses, and notification endpoints on
    /// loopback or private addresses, which are refused otherwise (they would make the server a
    /// request-forgery tool).
    public var developmentMode: Bool = false
    /// What one app group may put in the notification outbox by the console's and the admin API's
    /// "Send test notification".
    public var notificationLimits = NotificationLimits()
    /// How long a developer stays signed in to the console.
    public var consoleSessionLifetime: TimeInterval = 12 * 3600
    /// How long an invitation to join a team can be accepted.
    public var teamInvitationLifetime: TimeInterval = 7 * 86_400
    /// When the signing keys rotate (every 30 days, the next key published a day ahead at least,
    /// retired keys kept 7 days).
    public var keyRotation = KeyRotationSchedule()
    /// How soon after an organization stops allowing an app its accounts' grants to the app are
    /// revoked. Apple: "within 24 hours"; a minute here, so a test run can watch it happen.
    public var appWithdrawalWindow: TimeInterval = 60

    public init(issuer: String) { self.issuer = issuer }

    /// Where Apple's account pages and, since 2025-06-11, its discovery document's `issuer` live.
    public static let appleAccountIssuer = "https://account.apple.com"

    /// The `issuer` of the discovery document. A server that speaks as Apple (`--issuer apple`) as of
    /// a day since ``AppleDatedChange/accountIssuer`` names Apple's account issuer there, while its
    /// id_tokens keep `https://appleid.apple.com`. Without a day the document names the tokens'
    /// issuer, as this server always did: relying parties that compare the two keep working.
    public var discoveryIssuer: String {
        guard WireMatch.exact(issuer, Self.appleIssuer), let appleAsOf, AppleDatedChange.accountIssuer.isInEffect(asOf: appleAsOf) else {
            return issuer
        }
        return Self.appleAccountIssuer
    }

    /// The `issuer` of a client's own discovery document (`/.well-known/openid-configuration?client_id=`,
    /// a URL real Apple answers with its one document): Apple's account issuer when the client's day
    /// is since ``AppleDatedChange/accountIssuer``, whatever issuer the tokens carry; before it, the tokens'
    /// issuer; without a day of its own, the server-wide document's. The client asked for the document of
    /// its day, and its tokens keep their `iss`: the mismatch Apple made, shown to that client alone
    /// (`drift.issuer-flip`).
    public func discoveryIssuer(forClientAsOf clientDay: AppleDate?) -> String {
        guard let clientDay else { return discoveryIssuer }
        return AppleDatedChange.accountIssuer.isInEffect(asOf: clientDay) ? Self.appleAccountIssuer : issuer
    }

    /// The `aud` values accepted in a client secret: this issuer, and Apple's, so a secret minted for
    /// the real Apple works unchanged.
    public var acceptedClientSecretAudiences: Set<String> { [issuer, Self.appleIssuer] }
}
