import NIOCore

/// What `siwa check` is pointed at.
public struct CheckOptions: Sendable {
    /// Where the app starts sign-in (it redirects to the server's /auth/authorize).
    public var start: String
    /// Answers 2xx when the browser is signed in (empty: ``signedInWhen`` tells instead).
    public var probe: String
    /// The test of a signed-in browser for an app without a probe URL.
    public var signedInWhen: SignedInTest?
    /// The app's server-to-server notification endpoint (`notify.*` runs only with it).
    public var notifications: String?
    /// Where the signed-in user deletes the account (`delete.revoke` runs only with it).
    public var delete: String?
    /// The Apple ID server (its admin API must accept ``adminToken``; development mode on for faults).
    public var server: String
    public var adminToken: String
    /// The Apple ID the check signs in as, and the one it attacks with.
    public var victim: String
    public var attacker: String
    /// The Managed Apple ID of `trust.managed-account` (default: the first without e-mail on the server).
    public var managedAppleID: String?
    /// How long `token.timeout` keeps the token endpoint silent.
    public var timeoutDelay: Double = 20
    /// The longest the check waits for any one answer of the app (beyond `timeoutDelay` for that check).
    public var requestTimeout: Double = 30
    /// `drift.key-rotation`: how long to wait before one more sign-in when the first after the rotation
    /// failed, so an app that refetches /auth/keys at most once a minute (a cooldown) is not taken for
    /// one that never does; 0 tries once.
    public var keyRefetchWait: Double = 61
    /// Registers the app's redirect_uri as a Return URL first: for a server the check started itself.
    public var registersReturnURL = false

    public init(start: String, probe: String, server: String, adminToken: String, victim: String, attacker: String) {
        self.start = start
        self.probe = probe
        self.server = server.hasSuffix("/") ? String(server.dropLast()) : server
        self.adminToken = adminToken
        self.victim = victim
        self.attacker = attacker
    }
}

enum TimeAmountSeconds {
    static func amount(_ seconds: Double) -> TimeAmount { .milliseconds(Int64(seconds * 1000)) }
}
