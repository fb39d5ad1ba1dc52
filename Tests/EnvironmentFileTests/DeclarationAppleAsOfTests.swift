import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Testing

/// The quirk `apple_as_of` in a declaration's `quirks:`: applied, exported, and a day that is not
/// YYYY-MM-DD refused at its line.
@Suite("A declaration's apple_as_of quirk")
struct DeclarationAppleAsOfTests {
    static func juice(day: String) -> String {
        DeclarationHarness.juice.replacingOccurrences(
            of: "    description: Juice on the web\n", with: "    description: Juice on the web\n    quirks:\n      apple_as_of: \"\(day)\"\n")
    }

    @Test("the day is applied to the client and the client's tokens follow it")
    func applied() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        _ = try await EnvironmentFile.parse(Self.juice(day: "2024-01-01"), name: "siwa.yaml").apply(to: provider, prune: false)
        let web = try #require(try await provider.registeredClient("com.example.juice.web"))
        #expect(web.quirks.appleAsOf == AppleDate("2024-01-01"))
        #expect(web.quirks.resolvedBooleanStyle(serverAsOf: nil) == .string)
        #expect(QuirkChanges(differencesIn: web.quirks)?.appleAsOf == "2024-01-01")
    }

    @Test("a day that is not YYYY-MM-DD is refused with the reason")
    func refused() async throws {
        let file = try EnvironmentFile.parse(Self.juice(day: "2024-02-30"), name: "siwa.yaml")
        do {
            _ = try await file.apply(to: try await DeclarationHarness.freshProvider(), prune: false)
            Issue.record("accepted 2024-02-30")
        } catch let error as EnvironmentFileError {
            #expect(error.line != nil)
            #expect(error.reason.hasSuffix("apple_as_of is a date YYYY-MM-DD, such as 2024-01-01"), "\(error.reason)")
        }
    }
}
