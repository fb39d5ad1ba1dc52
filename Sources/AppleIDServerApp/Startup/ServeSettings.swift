import AppleIDProtocol
import AppleIDProvider
import AppleIDServer
import AppleIDStore
import Foundation
import Logging

/// What `siwa serve` was asked for.
public struct ServeSettings: Sendable {
    public var host = "127.0.0.1"
    public var port = 8080
    /// Where the SQLite database, the demo key and `demo.json` live.
    public var dataDirectory = ".siwa"
    /// `--config`: a declaration file (YAML or JSON) applied at start instead of the demo seed.
    public var configPath: String?
    /// `--config-prune`: remove what the store has beyond the file (otherwise only reported).
    public var configPrune = false
    /// A PostgreSQL URL (`postgres://user:password@host/database`); `nil` keeps the SQLite file in the
    /// data directory. The demo key and `demo.json` stay in the data directory either way.
    public var databaseURL: String?
    /// The PostgreSQL pool: its size and how long a request waits for a connection.
    public var databasePool = PostgresPoolSettings()
    /// `nil`: the server's own URL; `"apple"`: `https://appleid.apple.com`; otherwise the URL given.
    public var issuer: String?
    /// `--apple-as-of`: the day whose Apple the server speaks as; `nil`: today.
    public var appleAsOf: AppleDate?
    public var logLevel: Logger.Level = .info
    /// How log lines are written.
    public var logFormat = LogFormat.text
    /// Headless mode: an Apple ID, or `first` for the first demo user.
    public var autoApprove: String?
    /// The admin API's bearer token; `nil` uses the one generated on the first start.
    public var adminToken: String?
    public var relayDomain: String?
    /// The private relay's SMTP port on `host`; `0` turns the listener off. `nil`: 2525, and a port
    /// another server holds only turns the listener off (with a warning), so that a second
    /// `siwa serve` on one machine still starts.
    public var smtpPort: Int?
    /// The address the relay's SMTP listener binds: the loopback whatever `host` is. Beyond the
    /// loopback the relay takes a sender only from an address its domain's SPF policy lists.
    public var smtpHost = "127.0.0.1"
    /// `host:port` of an upstream SMTP server that takes relayed mail; `nil`: the built-in mailboxes.
    public var smtpSmarthost: String?
    /// The DNS server the e-mail sources' SPF check asks (`host[:port]`); `nil`: the first
    /// `nameserver` of `/etc/resolv.conf`.
    public var dnsResolver: String?
    /// Development mode shows the current two-factor code and the precise reason of errors on the
    /// pages. `nil`: on for a loopback bind only (see ``resolvedDevelopmentMode``).
    public var developmentMode: Bool?
    /// The playground, a relying party on the demo Services ID. `nil`: on for a loopback bind only.
    public var playground: Bool?
    /// Retries of server-to-server notifications: backoff bounds and how long to keep trying.
    public var deliveryPolicy = NotificationDelivery.Policy()
    /// When the signing keys rotate.
    public var keyRotation = KeyRotationSchedule()
    /// How often each instance checks whether the keys are due and reads them again from the store:
    /// the longest an instance publishes an old key set after another instance rotated.
    public var keyCheckInterval: TimeInterval = 10
    /// How long relayed mail is kept before the hourly purge deletes it.
    public var relayRetention: TimeInterval = 30 * 86_400
    /// The bytes of relayed mail one team may have stored; `nil`: no quota.
    public var relayTeamQuota: Int? = 1 << 30

    /// This machine's name: the host of the URLs when the server listens on every address.
    public var machineName = ProcessInfo.processInfo.hostName

    public init() {}

    /// Log lines as text, or one JSON object per line for log shippers.
    public enum LogFormat: String, Sendable {
        case text, json
    }

    /// Whether `host` means every address of this machine: nobody can reach `0.0.0.0` or `::`, so it
    /// is never a URL's host.
    public var bindsEveryAddress: Bool { ["0.0.0.0", "::", "[::]"].contains(host) }

    /// The URL others reach this server at: the machine's name for a wildcard bind.
    public var baseURL: String { "http://\(bindsEveryAddress ? machineName : host):\(port)" }

    /// For the banner: why the URLs do not name the address given to `--host`.
    public var bindNote: String? {
        guard bindsEveryAddress else { return nil }
        return "listening on every address (\(host)); the URLs name this machine, \(machineName)"
            + (issuer == nil ? " (pass --issuer to choose the issuer)" : " (the issuer is --issuer)")
    }

    /// Whether only this machine can reach the server.
    public var bindsLoopbackOnly: Bool { ServerOptions.isLoopback(host) }

    /// Development mode as asked, or by the bind: a newcomer's loopback server shows the code, a
    /// server that others can reach does not unless told so.
    public var resolvedDevelopmentMode: Bool { developmentMode ?? bindsLoopbackOnly }

    public var resolvedPlayground: Bool { playground ?? bindsLoopbackOnly }

    /// Whether only this machine can reach the relay's SMTP listener (otherwise senders are checked).
    public var smtpBindsLoopbackOnly: Bool { ServerOptions.isLoopback(smtpHost) }

    /// Every setting within its range, checked before anything starts.
    public func validate() throws {
        guard (1...65_535).contains(port) else { throw StartupError("--port \(port) is not a port: choose one from 1 to 65535") }
        if let smtpPort, !(0...65_535).contains(smtpPort) {
            throw StartupError("--smtp-port \(smtpPort) is not a port: choose 0 (off) or 1 to 65535")
        }
        guard !smtpHost.isEmpty else { throw StartupError("--smtp-host is empty: give an address, such as 127.0.0.1") }
        if let smtpSmarthost, SMTPSmarthostTransport.parse(smtpSmarthost, hostname: "") == nil {
            throw StartupError("--smtp-smarthost \(smtpSmarthost) is not host:port")
        }
        guard (1...1_000).contains(databasePool.maximumConnections) else {
            throw StartupError("--database-pool-size \(databasePool.maximumConnections) must be from 1 to 1000")
        }
        if let dnsResolver {
            do {
                _ = try ResolverAddress.parse(dnsResolver)
            } catch {
                throw StartupError("--dns-resolver \(dnsResolver): \(error.reason)")
            }
        }
        let window = deliveryPolicy.deliveryWindow
        guard window > 0, window <= Self.longestRetryWindow else {
            throw StartupError("--notification-retry-window must be more than 0 and at most 30 days")
        }
        let backoff = deliveryPolicy.maximumDelay
        guard backoff > 0, backoff <= window else {
            throw StartupError("--notification-max-backoff must be more than 0 and at most the retry window (\(Int(window)) s)")
        }
        try validateInstanceSettings()
        if let issuer, !WireMatch.exact(issuer, "apple") {
            guard let url = URL(string: issuer), ["http", "https"].contains(url.scheme ?? ""), url.host != nil else {
                throw StartupError("--issuer \(issuer) is not 'apple' or an http(s) URL")
            }
        }
    }

    /// Key rotation and delivery leases: what several instances sharing one database agree on.
    func validateInstanceSettings() throws {
        guard keyRotation.rotationInterval > 0, keyRotation.publicationLead >= 0,
            keyRotation.publicationLead <= keyRotation.rotationInterval
        else { throw StartupError("--key-rotation-interval must be more than 0 and at least --key-publication-lead") }
        guard keyRotation.retiredKeyRetention >= 86_400 else {
            throw StartupError("--retired-key-retention must be at least 1d: an id_token lives a day and must keep verifying")
        }
        guard relayRetention >= 3_600 else { throw StartupError("--relay-retention must be at least 1h") }
        if let relayTeamQuota, relayTeamQuota < 1 << 20 {
            throw StartupError("--relay-team-quota must be at least 1MB (or off): a smaller one refuses most messages")
        }
        guard keyCheckInterval >= 1, keyCheckInterval <= 3600 else { throw StartupError("--key-check-interval must be from 1s to 1h") }
        guard deliveryPolicy.leaseDuration > deliveryPolicy.requestTimeout else {
            throw StartupError("--notification-lease must be longer than one delivery request (\(Int(deliveryPolicy.requestTimeout)) s)")
        }
    }

    /// The SMTP listener's port when none is given.
    public static let defaultSMTPPort = 2525

    /// The longest time undelivered notifications are retried.
    public static let longestRetryWindow: TimeInterval = 30 * 86_400

    public var resolvedIssuer: String {
        switch issuer {
        case nil: baseURL
        case "apple": "https://appleid.apple.com"
        case let url?: url
        }
    }
}
