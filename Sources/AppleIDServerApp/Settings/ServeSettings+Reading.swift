import AppleIDProvider
import Configuration
import Foundation
import Logging

extension ServeSettings {
    /// `siwa serve`'s settings from one reader, in one order of precedence: the command line, then the
    /// environment (`SIWA_PORT`, …), then the `server:` section of the configuration file, then the
    /// defaults. Every key is a ``ServeSettingKey``; a value that does not fit names its source.
    ///
    /// - Parameters:
    ///   - arguments: The options given on the command line, as parsed, by setting.
    ///   - environment: The process environment; only `SIWA_` variables are read.
    ///   - configFile: The file of `--config`, YAML or (ending in `.json`) JSON.
    public static func read(
        arguments: [ServeSettingKey: ConfigContent] = [:], environment: [String: String] = [:], configFile: String? = nil
    ) throws -> ServeSettings {
        let lookup = try SettingsLookup(providers: providers(arguments: arguments, environment: environment, configFile: configFile))
        var settings = ServeSettings()
        if let (host, _) = try lookup.string(.host) { settings.host = host }
        if let (port, source) = try lookup.int(.port) {
            guard (1...65_535).contains(port) else {
                throw SettingsLookup.refusal(.port, source: source, value: "\(port)", expected: "a port: choose one from 1 to 65535")
            }
            settings.port = port
        }
        if let (directory, _) = try lookup.string(.dataDirectory) { settings.dataDirectory = directory }
        settings.databaseURL = try lookup.string(.databaseURL)?.0
        if let (size, _) = try lookup.int(.databasePoolSize) { settings.databasePool.maximumConnections = size }
        if let wait = try lookup.parsed(.databaseWait, expected: "a duration from 1s to 60s, such as 5s", databaseWait) {
            settings.databasePool.leaseTimeout = .seconds(wait)
        }
        if let prepares = try lookup.onOff(.databasePreparedStatements) { settings.databasePool.preparesStatements = prepares }
        settings.issuer = try lookup.string(.issuer)?.0
        settings.appleAsOf = try lookup.parsed(.appleAsOf, expected: AppleDate.expected, AppleDate.init)
        let levels = "a log level: trace, debug, info, notice, warning, error or critical"
        if let level = try lookup.parsed(.logLevel, expected: levels, Logger.Level.init(rawValue:)) { settings.logLevel = level }
        if let format = try lookup.parsed(.logFormat, expected: "a log format: text or json", LogFormat.init(rawValue:)) {
            settings.logFormat = format
        }
        settings.autoApprove = try lookup.string(.autoApprove)?.0
        settings.adminToken = try lookup.string(.adminToken)?.0
        settings.relayDomain = try lookup.string(.relayDomain)?.0
        if let (smtpHost, _) = try lookup.string(.smtpHost) { settings.smtpHost = smtpHost }
        settings.smtpPort = try lookup.int(.smtpPort)?.0
        settings.smtpSmarthost = try lookup.string(.smtpSmarthost)?.0
        if let quota = try lookup.parsed(.relayTeamQuota, expected: "a size such as 1GB or 500MB, or off", ByteSizeText.size) {
            switch quota {
            case .bytes(let bytes): settings.relayTeamQuota = bytes
            case .off: settings.relayTeamQuota = nil
            }
        }
        settings.dnsResolver = try lookup.string(.dnsResolver)?.0
        settings.developmentMode = try lookup.onOff(.developmentMode)
        settings.playground = try lookup.onOff(.playground)
        try readDurations(lookup, into: &settings)
        return settings
    }

    /// Retries, leases and the key schedule: what several instances on one database agree on.
    private static func readDurations(_ lookup: SettingsLookup, into settings: inout ServeSettings) throws {
        let durations: [(ServeSettingKey, WritableKeyPath<ServeSettings, TimeInterval>)] = [
            (.notificationRetryWindow, \.deliveryPolicy.deliveryWindow), (.notificationMaxBackoff, \.deliveryPolicy.maximumDelay),
            (.notificationLease, \.deliveryPolicy.leaseDuration), (.keyRotationInterval, \.keyRotation.rotationInterval),
            (.keyPublicationLead, \.keyRotation.publicationLead), (.retiredKeyRetention, \.keyRotation.retiredKeyRetention),
            (.keyCheckInterval, \.keyCheckInterval), (.relayRetention, \.relayRetention),
        ]
        for (key, path) in durations {
            if let seconds = try lookup.seconds(key) { settings[keyPath: path] = TimeInterval(seconds) }
        }
    }

    private static func databaseWait(_ text: String) -> Int? {
        DurationText.seconds(text).flatMap { (1...60).contains($0) ? $0 : nil }
    }

    /// Command line, environment, the file's section, defaults: the first that has a key gives it.
    private static func providers(
        arguments: [ServeSettingKey: ConfigContent], environment: [String: String], configFile: String?
    ) throws -> [(SettingSource, any ConfigProvider)] {
        func values(_ contents: [ServeSettingKey: ConfigContent]) -> [AbsoluteConfigKey: ConfigValue] {
            Dictionary(uniqueKeysWithValues: contents.map { (AbsoluteConfigKey([$0.key.name]), ConfigValue($0.value, isSecret: $0.key.isSecret)) })
        }
        var providers: [(SettingSource, any ConfigProvider)] = [
            (.commandLine, InMemoryProvider(name: "command line", values: values(arguments))),
            // SIWA_PORT is the key `siwa.port` to the environment provider.
            (.environment, EnvironmentVariablesProvider(environmentVariables: environment).prefixKeys(with: "siwa")),
        ]
        if let configFile {
            let section = try ServerSectionProvider(path: configFile)
            let known = Set(ServeSettingKey.all.map(\.name))
            if let unknown = section.keys.sorted().first(where: { !known.contains($0) }) {
                throw StartupError("\(unknown) in the server: section of \(configFile) is not a setting; see the settings table in the README")
            }
            providers.append((.file(configFile), section))
        }
        let defaults = ServeSettingKey.all.compactMap { key in key.defaultValue.map { (key, $0) } }
        providers.append((.defaults, InMemoryProvider(name: "defaults", values: values(Dictionary(uniqueKeysWithValues: defaults)))))
        return providers
    }
}
