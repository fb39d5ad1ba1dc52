import Configuration
import Foundation
import Testing

@testable import AppleIDServerApp

/// A value that does not fit stops `siwa serve` with one line naming the setting and where it came
/// from: the option, the environment variable, or the key in the file.
@Suite("siwa serve settings: errors name the source")
struct ServeSettingsErrorTests {
    typealias ConfigFile = ServeSettingsReadingTests.ConfigFile

    func refusal(
        arguments: [ServeSettingKey: ConfigContent] = [:], environment: [String: String] = [:], file: String? = nil
    ) throws -> String {
        let config = try file.map { try ConfigFile($0) }
        do {
            let settings = try ServeSettings.read(arguments: arguments, environment: environment, configFile: config?.path)
            Issue.record("read \(settings.port) without an error")
            return ""
        } catch let error as StartupError {
            return error.description.replacingOccurrences(of: config?.path ?? "\u{0}", with: "FILE")
        }
    }

    @Test(
        "a port that is not a number names its environment variable or its key in the file",
        arguments: [
            (["SIWA_PORT": "abc"], nil, "SIWA_PORT=abc is not a whole number"),
            ([:], "server:\n  port: abc\n", "port: abc in the server: section of FILE is not a whole number"),
            (["SIWA_SMTP_PORT": "25x"], nil, "SIWA_SMTP_PORT=25x is not a whole number"),
        ] as [([String: String], String?, String)])
    func portNotANumber(_ environment: [String: String], file: String?, expected: String) throws {
        #expect(try refusal(environment: environment, file: file) == expected)
    }

    @Test("an unknown log level names the option, the environment variable or the file")
    func unknownLogLevel() throws {
        let levels = "is not a log level: trace, debug, info, notice, warning, error or critical"
        #expect(try refusal(arguments: [.logLevel: .string("loud")]) == "--log-level loud \(levels)")
        #expect(try refusal(environment: ["SIWA_LOG_LEVEL": "loud"]) == "SIWA_LOG_LEVEL=loud \(levels)")
        #expect(try refusal(file: "server:\n  log_level: loud\n") == "log_level: loud in the server: section of FILE \(levels)")
    }

    @Test("a port out of range names its source")
    func portOutOfRange() throws {
        #expect(try refusal(arguments: [.port: .int(99_999)]) == "--port 99999 is not a port: choose one from 1 to 65535")
        #expect(try refusal(environment: ["SIWA_PORT": "0"]) == "SIWA_PORT=0 is not a port: choose one from 1 to 65535")
    }

    @Test("durations, switches and formats that do not fit name their source")
    func otherShapes() throws {
        #expect(
            try refusal(environment: ["SIWA_NOTIFICATION_LEASE": "soon"])
                == "SIWA_NOTIFICATION_LEASE=soon is not a duration such as 30s, 10m, 24h or 30d")
        #expect(try refusal(file: "server:\n  playground: maybe\n") == "playground: maybe in the server: section of FILE is not on or off")
        #expect(try refusal(arguments: [.logFormat: .string("xml")]) == "--log-format xml is not a log format: text or json")
        #expect(try refusal(environment: ["SIWA_DATABASE_WAIT": "5m"]) == "SIWA_DATABASE_WAIT=5m is not a duration from 1s to 60s, such as 5s")
        for size in ["lots", "-1MB", "1TB", "99999999999999999999GB", "MB"] {
            #expect(
                try refusal(arguments: [.relayTeamQuota: .string(size)]) == "--relay-team-quota \(size) is not a size such as 1GB or 500MB, or off")
        }
    }

    @Test("a secret that does not fit is named, never echoed")
    func secretNotEchoed() throws {
        let file = try ConfigFile(#"{"server": {"admin_token": 271828182845}}"#, name: "siwa.json")
        do {
            _ = try ServeSettings.read(configFile: file.path)
            Issue.record("a number read as the admin token")
        } catch let error as StartupError {
            #expect(error.description.contains("admin_token"))
            #expect(!error.description.contains("271828182845"))
        }
    }

    @Test("a misspelt key in the server: section is refused, not ignored")
    func unknownKey() throws {
        #expect(
            try refusal(file: "server:\n  prot: 8081\n")
                == "prot in the server: section of FILE is not a setting; see the settings table in the README")
    }

    @Test("a missing configuration file is named")
    func missingFile() throws {
        #expect(throws: StartupError.self) { try ServeSettings.read(configFile: "/nonexistent/siwa.yaml") }
        do {
            _ = try ServeSettings.read(configFile: "/nonexistent/siwa.yaml")
        } catch let error as StartupError {
            #expect(error.description == "cannot read the configuration file /nonexistent/siwa.yaml: there is no such file")
        }
    }
}
