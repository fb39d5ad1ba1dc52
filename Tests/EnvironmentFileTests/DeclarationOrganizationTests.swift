import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Testing

/// Organizations, their Managed Apple IDs and per-client quirks in a declaration: applied through
/// the engine's rules, idempotent, reported and pruned, exported, the same identities from one file.
@Suite("A declaration's organizations, Managed Apple IDs and quirks")
struct DeclarationOrganizationTests {
    /// The talk's file with a school that allows Juice only, and quirks on Juice's identifiers.
    static let school =
        DeclarationHarness.juice
        .replacingOccurrences(
            of: "    notification_endpoint: https://juice.example.com/apple/notifications\n",
            with: "    notification_endpoint: https://juice.example.com/apple/notifications\n    quirks:\n      deletion_event: account-deleted\n"
        )
        .replacingOccurrences(
            of: "    description: Juice on the web\n",
            with: "    description: Juice on the web\n    quirks:\n      booleans_as_strings: true\n      id_token_lifetime: 600\n")
            + """

            organizations:
              - name: Juice Demo School
                verified_domains: [school.example.edu]
                access_rule: specific-apps
                allowed_apps: [com.example.juice]
                accounts:
                  - username: t.teacher@appleid.school.example.edu
                    first_name: Taylor
                    last_name: Teacher
                    email: t.teacher@school.example.edu
                  - username: s.student@appleid.school.example.edu
                    first_name: Sam
                    last_name: Student
                    deactivated: true
            """

    static func parse(_ text: String = school) throws -> EnvironmentFile { try EnvironmentFile.parse(text, name: "siwa.yaml") }

    /// The refusal `text` gets, parsed or applied.
    static func refusal(_ text: String) async throws -> EnvironmentFileError {
        do {
            _ = try await parse(text).apply(to: try await DeclarationHarness.freshProvider(), prune: false)
        } catch let error as EnvironmentFileError {
            return error
        }
        Issue.record("accepted:\n\(text)")
        return EnvironmentFileError(file: "", line: nil, reason: "")
    }

    @Test("organizations, Managed Apple IDs and quirks are applied as declared")
    func applied() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        let report = try await Self.parse().apply(to: provider, prune: false)
        #expect(report.created.contains("organization Juice Demo School"))
        let organization = try #require(try await provider.organizations.list().first)
        #expect(organization.accessRule == .specificApps && organization.allowedApps == ["com.example.juice"])
        let accounts = try await provider.organizations.accounts(of: organization.id).sorted { $0.appleID < $1.appleID }
        #expect(accounts.map(\.managedState) == [.deactivated, .active], "the student, then the teacher")
        #expect(accounts.last?.managed?.organizationEmail == "t.teacher@school.example.edu")
        let web = try #require(try await provider.registeredClient("com.example.juice.web"))
        #expect(web.quirks.booleanStyle == .string && web.quirks.idTokenLifetime == 600)
        #expect(try await provider.registeredClient("com.example.juice")?.quirks.deletionEvent == .accountDeleted)
    }

    @Test("applying the same file twice changes nothing the second time")
    func idempotent() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        let file = try Self.parse()
        _ = try await file.apply(to: provider, prune: false)
        let before = try await DeclarationHarness.export(provider)
        let second = try await file.apply(to: provider, prune: false)
        #expect(second.changedNothing, "second apply: created \(second.created), updated \(second.updated)")
        #expect(second.notInFile.isEmpty)
        #expect(try await DeclarationHarness.export(provider) == before)
    }

    @Test("what differs is updated: a reactivated account, a new e-mail, a quirk left out goes back to current traffic")
    func updatesWhatDiffers() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        _ = try await Self.parse().apply(to: provider, prune: false)
        let changed = Self.school.replacingOccurrences(of: "deactivated: true", with: "email: sam@school.example.edu")
            .replacingOccurrences(of: "      id_token_lifetime: 600\n", with: "")
        let report = try await Self.parse(changed).apply(to: provider, prune: false)
        #expect(
            Set(report.updated)
                == [
                    "quirks of com.example.juice.web", "e-mail of s.student@appleid.school.example.edu",
                    "s.student@appleid.school.example.edu reactivated",
                ])
        let student = try #require(try await provider.activeAccount(appleID: "s.student@appleid.school.example.edu"))
        #expect(student.managed?.organizationEmail == "sam@school.example.edu")
        let web = try #require(try await provider.registeredClient("com.example.juice.web"))
        #expect(web.quirks.idTokenLifetime == nil && web.quirks.booleanStyle == .string)
    }

    @Test("an organization and a Managed Apple ID beyond the file are reported; pruning deletes the account and keeps the organization")
    func reportsAndPrunes() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        let file = try Self.parse()
        _ = try await file.apply(to: provider, prune: false)
        let school = try #require(try await provider.organizations.list().first)
        _ = try await provider.organizations.addAccount(
            to: school.id, username: "extra@appleid.school.example.edu", password: "pw", firstName: "E", lastName: "X")
        let other = try await provider.organizations.add(name: "Other Corp", kind: .business)
        let report = try await file.apply(to: provider, prune: false)
        #expect(Set(report.notInFile) == ["Managed Apple ID extra@appleid.school.example.edu", "organization \(other.claimValue) (Other Corp)"])
        let pruned = try await file.apply(to: provider, prune: true)
        #expect(pruned.removed == ["Managed Apple ID extra@appleid.school.example.edu"])
        #expect(pruned.notInFile == ["organization \(other.claimValue) (Other Corp)"])
        #expect(try await provider.lookUpAccount(appleID: "extra@appleid.school.example.edu")?.deletedAt != nil)
    }

    @Test("two fresh engines started from one file get the same org_id and the same Managed Apple ID subs")
    func sameFileSameIdentities() async throws {
        let one = try await DeclarationHarness.freshProvider(random: "one")
        let two = try await DeclarationHarness.freshProvider(random: "two")
        _ = try await Self.parse().apply(to: one, prune: false)
        _ = try await Self.parse().apply(to: two, prune: false)
        let exported = try await DeclarationHarness.export(one)
        #expect(try await DeclarationHarness.export(two) == exported)
        let school = try #require(exported.organizations.first)
        #expect(UUID(uuidString: school.orgID ?? "") != nil)
        let subs = (school.accounts ?? []).compactMap(\.sub)
        #expect(subs.count == 2 && subs.allSatisfy { $0.split(separator: ".").map(\.count) == [6, 32, 4] })
    }

    @Test("export, start fresh from it, export again: identical, organizations and quirks included")
    func exportRoundTrip() async throws {
        let original = try await DeclarationHarness.freshProvider()
        _ = try await Self.parse().apply(to: original, prune: false)
        let first = try EnvironmentFile.render(try await DeclarationHarness.export(original))
        let fresh = try await DeclarationHarness.freshProvider()
        _ = try await EnvironmentFile.parse(first, name: "export.yaml").apply(to: fresh, prune: false)
        #expect(try EnvironmentFile.render(try await DeclarationHarness.export(fresh)) == first)
        for key in ["org_id:", "access_rule: specific-apps", "deactivated: true", "booleans_as_strings: true", "deletion_event: account-deleted"] {
            #expect(first.contains(key), "the export lacks \(key)")
        }
    }

    @Test("the README's organization example, added to siwa.example.yaml, applies")
    func readmeExampleApplies() async throws {
        let readme = try String(contentsOf: DeclarationHarness.packageRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let example = try #require(readme.components(separatedBy: "```yaml\n").first { $0.hasPrefix("organizations:") })
        let base = try String(contentsOf: DeclarationHarness.packageRoot.appendingPathComponent("siwa.example.yaml"), encoding: .utf8)
        let file = try Self.parse(base + "\n" + (example.components(separatedBy: "```").first ?? ""))
        let provider = try await DeclarationHarness.freshProvider()
        let report = try await file.apply(to: provider, prune: false)
        #expect(report.created.contains("organization Juice Demo School"))
        #expect(file.declaration.organizations.first?.accounts?.count == 2)
    }

    @Test("a Managed Apple ID's e-mail outside the organization's domains is refused at its own line, with the engine's rule")
    func emailOutsideDomains() async throws {
        let text = Self.school.replacingOccurrences(of: "email: t.teacher@school.example.edu", with: "email: t.teacher@gmail.example")
        let error = try await Self.refusal(text)
        #expect(error.line == 48)
        #expect(error.description.hasPrefix("siwa.yaml:48: organizations[0].accounts[0].email: t.teacher@gmail.example is outside"))
    }

    @Test("an access rule outside the vocabulary is refused at its line")
    func badAccessRule() async throws {
        let error = try await Self.refusal(Self.school.replacingOccurrences(of: "access_rule: specific-apps", with: "access_rule: some-apps"))
        #expect(error.line == 42)
        #expect(error.reason.hasPrefix("organizations[0].access_rule:"))
    }

    @Test("an org_id that is not a UUID is refused at its line")
    func badOrgID() async throws {
        let error = try await Self.refusal(
            Self.school.replacingOccurrences(of: "  - name: Juice Demo School\n", with: "  - name: Juice Demo School\n    org_id: school-1\n"))
        #expect(error.line == 41)
        #expect(error.reason == "organizations[0].org_id: org_id school-1: a UUID, as the org_id claim")
    }

    @Test("a federation URL or a verified domain the engine refuses is refused at its own line")
    func badFederationURLAndDomain() async throws {
        let allowed = "    allowed_apps: [com.example.juice]\n"
        let federation = try await Self.refusal(
            Self.school.replacingOccurrences(of: allowed, with: allowed + "    federation_url: http://idp.example.com/check\n"))
        #expect(federation.line == 44)
        #expect(federation.reason.hasPrefix("organizations[0].federation_url: a federation URL is https://"))
        let domains = "verified_domains:\n      - school.example.edu\n      - 10.0.0.1"
        let domain = try await Self.refusal(Self.school.replacingOccurrences(of: "verified_domains: [school.example.edu]", with: domains))
        #expect(domain.line == 43)
        #expect(domain.reason.hasPrefix("organizations[0].verified_domains[1]: verified domain 10.0.0.1:"))
    }

    @Test("a quirk the console refuses is refused at its line")
    func badQuirk() async throws {
        let error = try await Self.refusal(Self.school.replacingOccurrences(of: "id_token_lifetime: 600", with: "id_token_lifetime: 0"))
        #expect(error.line == 18)
        #expect(error.reason == "services_ids[0].quirks.id_token_lifetime: id_token_lifetime is a number of seconds from 1 to 31536000")
    }
}
