import Configuration
import Foundation
import Testing

@testable import AppleIDServerApp

/// `siwa serve`'s settings come from one reader: the command line, then SIWA_* variables, then the
/// `server:` section of the configuration file, then the defaults (issue 26).
@Suite("siwa serve settings: one reader, four sources")
struct ServeSettingsReadingTests {
    /// A configuration file in a folder of its own, removed when the test ends.
    final class ConfigFile {
        let path: String
        init(_ text: String, name: String = "siwa.yaml") throws {
            let folder = FileManager.default.temporaryDirectory.appendingPathComponent("siwa-settings-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.appendingPathComponent(name).path
            try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        }
        deinit { try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path) }
    }

    @Test("with no source, every setting is its documented default")
    func defaults() throws {
        let settings = try ServeSettings.read()
        #expect(settings.host == "127.0.0.1")
        #expect(settings.port == 8080)
        #expect(settings.dataDirectory == ".siwa")
        #expect(settings.databaseURL == nil)
        #expect(settings.databasePool.maximumConnections == 16)
        #expect(settings.databasePool.leaseTimeout == .seconds(5))
        #expect(settings.databasePool.preparesStatements)
        #expect(settings.logLevel == .info)
        #expect(settings.logFormat == .text)
        #expect(settings.smtpPort == nil, "no port given: 2525, and a port another server holds only turns the listener off")
        #expect(settings.developmentMode == nil && settings.playground == nil, "decided by the bind")
        #expect(settings.deliveryPolicy.deliveryWindow == 86_400)
        #expect(settings.deliveryPolicy.maximumDelay == 3600)
        #expect(settings.deliveryPolicy.leaseDuration == 60)
        #expect(settings.keyRotation.rotationInterval == 30 * 86_400)
        #expect(settings.keyRotation.publicationLead == 86_400)
        #expect(settings.keyRotation.retiredKeyRetention == 7 * 86_400)
        #expect(settings.keyCheckInterval == 10)
        #expect(settings.relayRetention == 30 * 86_400)
        #expect(settings.relayTeamQuota == 1 << 30)
    }

    @Test("the relay's team quota is a size in binary units, or off")
    func relayTeamQuota() throws {
        #expect(try ServeSettings.read(arguments: [.relayTeamQuota: .string("500MB")]).relayTeamQuota == 500 << 20)
        #expect(try ServeSettings.read(environment: ["SIWA_RELAY_TEAM_QUOTA": "2g"]).relayTeamQuota == 2 << 30)
        #expect(try ServeSettings.read(environment: ["SIWA_RELAY_TEAM_QUOTA": "off"]).relayTeamQuota == nil)
        #expect(try ServeSettings.read(arguments: [.relayTeamQuota: .string("1048576")]).relayTeamQuota == 1 << 20)
        var small = try ServeSettings.read(arguments: [.relayTeamQuota: .string("64KB")])
        #expect(small.relayTeamQuota == 64 << 10)
        #expect(throws: StartupError.self) { try small.validate() }
        small.relayTeamQuota = nil
        try small.validate()
    }

    @Test("the command line alone sets a setting")
    func commandLineAlone() throws {
        let settings = try ServeSettings.read(arguments: [.port: .int(9001), .playground: .bool(false), .keyCheckInterval: .string("1m")])
        #expect(settings.port == 9001)
        #expect(settings.playground == false)
        #expect(settings.keyCheckInterval == 60)
    }

    @Test("SIWA_* environment variables alone set settings; other variables are not read")
    func environmentAlone() throws {
        let settings = try ServeSettings.read(environment: [
            "SIWA_PORT": "9002", "SIWA_DATA_DIR": "/var/lib/siwa", "SIWA_DEVELOPMENT_MODE": "false", "SIWA_PLAYGROUND": "on",
            "SIWA_NOTIFICATION_RETRY_WINDOW": "2d", "PORT": "1", "HOST": "0.0.0.0",
        ])
        #expect(settings.port == 9002)
        #expect(settings.host == "127.0.0.1")
        #expect(settings.dataDirectory == "/var/lib/siwa")
        #expect(settings.developmentMode == false)
        #expect(settings.playground == true)
        #expect(settings.deliveryPolicy.deliveryWindow == 2 * 86_400)
    }

    @Test("a YAML file's server: section alone sets settings, and the file's other sections are left to the declarations")
    func yamlFileAlone() throws {
        let file = try ConfigFile(
            """
            server:
              port: 9003
              log_level: debug
              log_format: json
              development_mode: off
              database_pool_size: 4
              database_wait: 2s
              database_prepared_statements: off
            teams:
              - team_id: ABCDE12345
                name: Juice
                apps: [com.example.juice]
            """)
        let settings = try ServeSettings.read(configFile: file.path)
        #expect(settings.port == 9003)
        #expect(settings.logLevel == .debug)
        #expect(settings.logFormat == .json)
        #expect(settings.developmentMode == false)
        #expect(settings.databasePool.maximumConnections == 4)
        #expect(settings.databasePool.leaseTimeout == .seconds(2))
        #expect(!settings.databasePool.preparesStatements)
    }

    @Test("a JSON file's server object alone sets settings")
    func jsonFileAlone() throws {
        let file = try ConfigFile(
            #"{"server": {"port": 9004, "host": "::1", "playground": false, "smtp_port": 0}, "apple_ids": [{"apple_id": "a@example.com"}]}"#,
            name: "siwa.json")
        let settings = try ServeSettings.read(configFile: file.path)
        #expect(settings.port == 9004)
        #expect(settings.host == "::1")
        #expect(settings.playground == false)
        #expect(settings.smtpPort == 0)
    }

    @Test("a file without a server: section changes nothing")
    func fileWithoutServerSection() throws {
        let file = try ConfigFile("teams: []\n")
        #expect(try ServeSettings.read(configFile: file.path).port == 8080)
    }

    @Test(
        "the command line beats the environment, which beats the file, which beats the default",
        arguments: [
            ([true, true, true], 1001), ([false, true, true], 2002), ([false, false, true], 3003), ([false, false, false], 8080),
            ([true, false, true], 1001), ([true, true, false], 1001), ([false, true, false], 2002),
        ])
    func precedence(_ given: [Bool], expectedPort: Int) throws {
        let file = try ConfigFile(given[2] ? "server:\n  port: 3003\n  log_level: error\n" : "server: {}\n")
        let settings = try ServeSettings.read(
            arguments: given[0] ? [.port: .int(1001), .logLevel: .string("trace")] : [:],
            environment: given[1] ? ["SIWA_PORT": "2002", "SIWA_LOG_LEVEL": "warning"] : [:], configFile: file.path)
        #expect(settings.port == expectedPort)
        let expectedLevel: [Int: String] = [1001: "trace", 2002: "warning", 3003: "error", 8080: "info"]
        #expect(settings.logLevel.rawValue == expectedLevel[expectedPort])
    }

    @Test("a source that loses is not read: a bad SIWA_PORT under --port stops nothing")
    func shadowedValueIsNotRead() throws {
        let settings = try ServeSettings.read(arguments: [.port: .int(9005)], environment: ["SIWA_PORT": "abc"])
        #expect(settings.port == 9005)
    }

    @Test(
        "SMTP binds the loopback whatever --host is: the HTTP bind does not open the relay to the network", arguments: ["0.0.0.0", "127.0.0.2", "::"])
    func smtpBindsLoopbackWhateverHost(_ host: String) throws {
        let settings = try ServeSettings.read(arguments: [.host: .string(host)])
        #expect(settings.host == host)
        #expect(settings.smtpHost == "127.0.0.1")
    }
}
