import AppleIDProvider
import Foundation

/// How the private relay behaves (spec §11): its daily limit, where forwarded mail goes, and how
/// the smarthost queue retries.
public struct RelaySettings: Sendable, Hashable {
    /// Messages a relay address takes per day, forwards and replies together (Apple's: 100).
    public var dailyLimit = 100
    /// Whether an upstream SMTP server takes the mail (`--smtp-smarthost`); otherwise forwarded mail
    /// stays in the built-in mailbox and replies are held for the admin API.
    public var usesSmarthost = false
    /// The first retry's delay; each later one doubles, up to ``maximumRetryDelay``.
    public var firstRetryDelay: TimeInterval = 30
    public var maximumRetryDelay: TimeInterval = 3_600
    /// How long a message is retried before it bounces (RFC 5321 §4.5.4.1: 4–5 days; shorter here).
    public var deliveryWindow: TimeInterval = 2 * 86_400
    /// How long one attempt holds a queued message against other instances.
    public var leaseDuration: TimeInterval = 120
    /// How long relayed mail is kept (`--relay-retention`); the hourly purge deletes what is older.
    public var retention: TimeInterval = 30 * 86_400
    /// The bytes of relayed mail one team may have stored (`--relay-team-quota`); past it the relay
    /// answers 452 until the retention frees some. `nil`: no quota.
    public var teamStorageQuota: Int? = 1 << 30
    /// The key that seals the Message-IDs crossing the relay (``RelayMessageIDs``): the server derives
    /// it from the storage key, so that ids map back across restarts and instances.
    public var messageIDKey: [UInt8] = (0..<32).map { _ in UInt8.random(in: 0...255) }

    public init() {}
}
