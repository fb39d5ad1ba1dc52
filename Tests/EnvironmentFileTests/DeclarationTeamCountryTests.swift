import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Testing

/// A team's `country:` in an environment file: applied, exported, Apple's Korean rule enforced at
/// the Services ID's line, and a code that is not two letters refused at its own.
@Suite("A declaration's team country")
struct DeclarationTeamCountryTests {
    static func juice(country: String, endpoint: Bool = true) -> String {
        var text = DeclarationHarness.juice.replacingOccurrences(
            of: "  - name: Juice Team\n", with: "  - name: Juice Team\n    country: \(country)\n")
        if !endpoint {
            text = text.replacingOccurrences(of: "    notification_endpoint: https://juice.example.com/apple/notifications\n", with: "")
        }
        return text
    }

    @Test("applied, exported, and started again from the export")
    func appliedAndExported() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        _ = try await EnvironmentFile.parse(Self.juice(country: "kr"), name: "siwa.yaml").apply(to: provider, prune: false)
        #expect(try await provider.teams().map(\.country) == ["KR"])
        let exported = try await DeclarationHarness.export(provider)
        #expect(exported.teams.map(\.country) == ["KR"])
        let again = try await DeclarationHarness.freshProvider()
        _ = try await EnvironmentFile.parse(try EnvironmentFile.render(exported), name: "export.yaml").apply(to: again, prune: false)
        #expect(try await again.teams().map(\.country) == ["KR"])
    }

    @Test("a Korean team's Services ID without its primary App ID's endpoint is refused at its line, with Apple's reason")
    func koreanRule() async throws {
        let file = try EnvironmentFile.parse(Self.juice(country: "KR", endpoint: false), name: "siwa.yaml")
        do {
            _ = try await file.apply(to: try await DeclarationHarness.freshProvider(), prune: false)
            Issue.record("a Korean team's Services ID was registered without a notification endpoint")
        } catch let error as EnvironmentFileError {
            #expect(error.line != nil)
            #expect(error.reason.contains("Developers based in the Republic of Korea must provide a server-to-server notification endpoint"))
        }
        let elsewhere = try EnvironmentFile.parse(Self.juice(country: "FR", endpoint: false), name: "siwa.yaml")
        _ = try await elsewhere.apply(to: try await DeclarationHarness.freshProvider(), prune: false)
    }

    @Test("a country that is not two letters is refused at its line")
    func refused() async throws {
        let file = try EnvironmentFile.parse(Self.juice(country: "Korea"), name: "siwa.yaml")
        do {
            _ = try await file.apply(to: try await DeclarationHarness.freshProvider(), prune: false)
            Issue.record("accepted Korea")
        } catch let error as EnvironmentFileError {
            #expect(error.line == 6, "\(error)")
            #expect(error.reason.contains("two-letter ISO 3166-1 code"), "\(error.reason)")
        }
    }
}
