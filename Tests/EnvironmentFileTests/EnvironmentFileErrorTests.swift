import AppleIDConsole
import AppleIDProvider
import EnvironmentFile
import Testing

@Suite("A declaration file's errors name the file, the line and the rule")
struct EnvironmentFileErrorTests {
    /// The refusal `text` gets, parsed or applied.
    func refusal(_ text: String) async throws -> EnvironmentFileError {
        do {
            let file = try EnvironmentFile.parse(text, name: "siwa.yaml")
            _ = try await file.apply(to: try await DeclarationHarness.freshProvider(), prune: false)
        } catch let error as EnvironmentFileError {
            return error
        }
        Issue.record("accepted:\n\(text)")
        return EnvironmentFileError(file: "", line: nil, reason: "")
    }

    @Test("a Return URL on an IP address over http is refused at its own line, with Apple's rule")
    func returnURLRule() async throws {
        let text = DeclarationHarness.juice.replacingOccurrences(
            of: "      - https://juice.example.com/auth/apple/callback",
            with: "      - https://juice.example.com/auth/apple/callback\n      - http://10.0.0.1/cb")
        let error = try await refusal(text)
        #expect(error.line == 17)
        #expect(error.description.hasPrefix("siwa.yaml:17: services_ids[0].return_urls[1]: http://10.0.0.1/cb"))
        #expect(error.reason.contains("must use https"))
    }

    @Test("an unknown key (a typo the model would drop) is refused at its line")
    func unknownKey() async throws {
        let text = DeclarationHarness.juice.replacingOccurrences(of: "    return_urls:", with: "    return_url: []\n    return_urls:")
        let error = try await refusal(text)
        #expect(error.line == 15)
        #expect(error.reason == "unknown key services_ids[0].return_url")
    }

    @Test("a value of the wrong type is refused at its line")
    func wrongType() async throws {
        let text = DeclarationHarness.juice.replacingOccurrences(of: "two_factor: false", with: "two_factor: [no]")
        let error = try await refusal(text)
        #expect(error.line == 29)
        #expect(error.reason == "apple_ids[1].two_factor: expected a single value, not a list or mapping")
    }

    @Test("a key naming a team the file does not declare is refused at its line")
    func unknownTeam() async throws {
        let text = DeclarationHarness.juice.replacingOccurrences(of: "  - name: Juice key\n", with: "  - name: Juice key\n    team: Lemonade\n")
        let error = try await refusal(text)
        #expect(error.line == 19)
        #expect(error.reason == "keys[0].team: there is no team named Lemonade in the file")
    }

    @Test("the server's own settings are not this reader's: any key under server: is accepted")
    func serverSettingsIgnored() throws {
        let file = try EnvironmentFile.parse("server:\n  anything: [1, 2]\nteams: []\n", name: "siwa.yaml")
        #expect(file.declaration == EnvironmentDeclaration())
    }
}
