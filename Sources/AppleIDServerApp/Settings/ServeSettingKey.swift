import Configuration

/// One setting of `siwa serve`, under one name in every source: `port` is `--port` on the command
/// line, `SIWA_PORT` in the environment and `port:` in the configuration file's `server:` section.
///
/// ``all`` is the list the reader reads and the README's table documents (a test keeps the two equal).
public struct ServeSettingKey: Sendable, Hashable {
    /// The key in the file's `server:` section (snake_case, as YAML files spell keys).
    public let name: String
    /// The `siwa serve` option.
    public let flag: String
    /// The value when no source gives one: the reader's last provider holds these.
    public let defaultValue: ConfigContent?
    /// What happens when no source gives one and no single value says it (the issuer is the server's URL).
    let defaultNote: String?
    /// What it changes: the option's help and the README's explanation.
    public let meaning: String
    /// Never logged nor echoed in an error: a URL with a password, a bearer token.
    public let isSecret: Bool

    init(
        _ name: String, flag: String? = nil, default defaultValue: ConfigContent? = nil, note: String? = nil, secret: Bool = false,
        _ meaning: String
    ) {
        self.name = name
        self.flag = flag ?? "--" + name.replacingOccurrences(of: "_", with: "-")
        self.defaultValue = defaultValue
        self.defaultNote = note
        self.meaning = meaning
        self.isSecret = secret
    }

    /// The environment variable: `SIWA_` and the key in capitals.
    public var environmentVariable: String { "SIWA_" + name.uppercased() }

    /// The default as a person reads it (empty: none, the setting is off).
    public var documentedDefault: String {
        switch defaultValue {
        case .string(let text)?: text
        case .int(let number)?: "\(number)"
        case .bool(let on)?: on ? "on" : "off"
        default: defaultNote ?? ""
        }
    }

    /// The option's help: the meaning and the default.
    public var help: String { documentedDefault.isEmpty ? meaning : "\(meaning) (default: \(documentedDefault))" }
}

extension ServeSettingKey {
    public static let host = Self("host", default: .string("127.0.0.1"), "Address to listen on.")
    public static let port = Self("port", default: .int(8080), "Port to listen on.")
    public static let dataDirectory = Self("data_dir", default: .string(".siwa"), "Where the database, the demo key and demo.json live.")
    public static let databaseURL = Self(
        "database_url", flag: "--database", note: "SQLite in the data directory", secret: true,
        "A PostgreSQL URL (postgres://user:password@host:5432/database) instead of SQLite in the data directory.")
    public static let databasePoolSize = Self("database_pool_size", default: .int(16), "PostgreSQL only: the most connections this instance opens.")
    public static let databaseWait = Self(
        "database_wait", default: .string("5s"), "PostgreSQL only: how long a request waits for a free connection before it is answered 503.")
    public static let databasePreparedStatements = Self(
        "database_prepared_statements", default: .bool(true),
        "PostgreSQL only: prepare the sign-in and token statements once per connection (off behind a pooler that swaps sessions).")
    public static let issuer = Self(
        "issuer", note: "the server's URL", "Issuer of the tokens: the server's URL, 'apple' for https://appleid.apple.com, or a URL.")
    public static let appleAsOf = Self(
        "apple_as_of", note: "today",
        "Speak as Apple did on this day, YYYY-MM-DD (README: Apple as of a date); a client's apple_as_of or quirk wins.")
    public static let logLevel = Self("log_level", default: .string("info"), "Log level: trace, debug, info, notice, warning, error, critical.")
    public static let logFormat = Self("log_format", default: .string("text"), "Log lines as text or json (one object per line, for log shippers).")
    public static let autoApprove = Self(
        "auto_approve", note: "off", "Headless mode: approve every authorization as this Apple ID ('first' for the first demo user).")
    public static let adminToken = Self(
        "admin_token", note: "generated on the first start", secret: true, "Bearer token of the admin API.")
    public static let relayDomain = Self("relay_domain", default: .string("privaterelay.appleid.com"), "Domain of Hide My Email relay addresses.")
    public static let smtpPort = Self(
        "smtp_port", note: "2525, off (with a warning) when another server holds it",
        "SMTP port of the private e-mail relay on the host; 0 turns it off.")
    public static let smtpHost = Self(
        "smtp_host", default: .string("127.0.0.1"),
        "Address the private e-mail relay's SMTP listener binds, whatever --host is; beyond the loopback a sender must pass SPF.")
    public static let smtpSmarthost = Self(
        "smtp_smarthost", note: "the built-in mailboxes", "host:port of an upstream SMTP server for relayed mail.")
    public static let relayRetention = Self(
        "relay_retention", default: .string("30d"), "How long relayed mail is kept (mailboxes and delivered copies); older mail is purged hourly.")
    public static let relayTeamQuota = Self(
        "relay_team_quota", default: .string("1GB"),
        "The relayed mail one team may have stored (1GB, 500MB, off); past it the relay answers 452 until the retention frees some.")
    public static let dnsResolver = Self(
        "dns_resolver", note: "the first nameserver of /etc/resolv.conf", "DNS server for the e-mail sources' SPF check, host[:port].")
    public static let developmentMode = Self(
        "development_mode", note: "on for a loopback host only",
        "Show the current two-factor code and the precise reason of errors on the pages (--no-development-mode turns it off).")
    public static let playground = Self(
        "playground", note: "on for a loopback host only", "The playground, a relying party on the demo Services ID: on or off.")
    public static let notificationRetryWindow = Self(
        "notification_retry_window", default: .string("24h"), "How long an undelivered notification is retried (then it is abandoned).")
    public static let notificationMaxBackoff = Self(
        "notification_max_backoff", default: .string("1h"), "The longest wait between two delivery attempts.")
    public static let notificationLease = Self(
        "notification_lease", default: .string("60s"),
        "How long an instance holds the notifications it is delivering before another instance may take them over.")
    public static let keyRotationInterval = Self(
        "key_rotation_interval", default: .string("30d"), "How long a signing key signs before the next one takes over.")
    public static let keyPublicationLead = Self(
        "key_publication_lead", default: .string("1d"), "How long, at least, the next signing key is published before it signs.")
    public static let retiredKeyRetention = Self(
        "retired_key_retention", default: .string("7d"), "How long a retired signing key stays in /auth/keys.")
    public static let keyCheckInterval = Self(
        "key_check_interval", default: .string("10s"),
        "How often to check whether the keys are due and to read them again (what other instances rotated).")

    /// Every setting, in the README's order.
    public static let all: [ServeSettingKey] = [
        .host, .port, .dataDirectory, .databaseURL, .databasePoolSize, .databaseWait, .databasePreparedStatements, .issuer, .appleAsOf, .logLevel,
        .logFormat, .autoApprove, .adminToken, .relayDomain, .smtpHost, .smtpPort, .smtpSmarthost, .relayRetention, .relayTeamQuota, .dnsResolver,
        .developmentMode,
        .playground,
        .notificationRetryWindow, .notificationMaxBackoff, .notificationLease, .keyRotationInterval, .keyPublicationLead, .retiredKeyRetention,
        .keyCheckInterval,
    ]
}
