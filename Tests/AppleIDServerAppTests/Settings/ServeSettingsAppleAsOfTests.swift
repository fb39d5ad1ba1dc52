import AppleIDProvider
import Configuration
import Foundation
import Testing

@testable import AppleIDServerApp

/// `--apple-as-of`, `SIWA_APPLE_AS_OF` and `apple_as_of:` in the file's `server:` section.
@Suite("siwa serve settings: Apple as of a date")
struct ServeSettingsAppleAsOfTests {
    @Test("the day is read from the option, the environment or the file; none is today")
    func read() throws {
        #expect(try ServeSettings.read().appleAsOf == nil)
        #expect(try ServeSettings.read(arguments: [.appleAsOf: .string("2024-01-01")]).appleAsOf == AppleDate("2024-01-01"))
        #expect(try ServeSettings.read(environment: ["SIWA_APPLE_AS_OF": "2025-06-10"]).appleAsOf == AppleDate("2025-06-10"))
        let file = try ServeSettingsReadingTests.ConfigFile("server:\n  apple_as_of: \"2026-06-15\"\n")
        #expect(try ServeSettings.read(configFile: file.path).appleAsOf == AppleDate("2026-06-15"))
    }

    @Test("a day that is not YYYY-MM-DD stops siwa serve with one line naming its source")
    func refused() throws {
        let expected = "is not a date YYYY-MM-DD, such as 2024-01-01"
        let errors = ServeSettingsErrorTests()
        #expect(try errors.refusal(arguments: [.appleAsOf: .string("2024-13-01")]) == "--apple-as-of 2024-13-01 \(expected)")
        #expect(try errors.refusal(environment: ["SIWA_APPLE_AS_OF": "soon"]) == "SIWA_APPLE_AS_OF=soon \(expected)")
    }
}
