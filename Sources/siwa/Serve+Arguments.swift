import AppleIDServerApp
import Configuration

extension Serve {
    /// The options given, by setting: the first of the reader's sources.
    var arguments: [ServeSettingKey: ConfigContent] {
        let texts: [(ServeSettingKey, String?)] = [
            (.host, host), (.dataDirectory, dataDir), (.databaseURL, database), (.databaseWait, databaseWait), (.issuer, issuer),
            (.appleAsOf, appleAsOf),
            (.logLevel, logLevel), (.logFormat, logFormat), (.autoApprove, autoApprove), (.adminToken, adminToken),
            (.relayDomain, relayDomain), (.smtpHost, smtpHost), (.smtpSmarthost, smtpSmarthost), (.relayRetention, relayRetention),
            (.relayTeamQuota, relayTeamQuota), (.dnsResolver, dnsResolver),
            (.notificationRetryWindow, notificationRetryWindow), (.notificationMaxBackoff, notificationMaxBackoff),
            (.notificationLease, notificationLease), (.keyRotationInterval, keyRotationInterval), (.keyPublicationLead, keyPublicationLead),
            (.retiredKeyRetention, retiredKeyRetention), (.keyCheckInterval, keyCheckInterval),
        ]
        var given: [ServeSettingKey: ConfigContent] = [:]
        for case let (key, text?) in texts { given[key] = .string(text) }
        for case let (key, number?) in [(ServeSettingKey.port, port), (.databasePoolSize, databasePoolSize), (.smtpPort, smtpPort)] {
            given[key] = .int(number)
        }
        if let developmentMode { given[.developmentMode] = .bool(developmentMode) }
        if let playground { given[.playground] = .bool(playground == .on) }
        if let databasePreparedStatements { given[.databasePreparedStatements] = .bool(databasePreparedStatements == .on) }
        return given
    }
}
