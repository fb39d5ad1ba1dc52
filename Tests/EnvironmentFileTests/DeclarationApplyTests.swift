import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Testing

@Suite("Applying a declaration: idempotent, reports and prunes, same file same identities")
struct DeclarationApplyTests {
    let file: EnvironmentFile

    init() throws { file = try EnvironmentFile.parse(DeclarationHarness.juice, name: "siwa.yaml") }

    @Test("applying the same file twice changes nothing the second time")
    func idempotent() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        let first = try await file.apply(to: provider, prune: false)
        #expect(first.created.count == 8, "team, e-mail source, App ID, Services ID, key, two Apple IDs, developer")
        let before = try await DeclarationHarness.export(provider)
        let second = try await file.apply(to: provider, prune: false)
        #expect(second.changedNothing, "second apply: created \(second.created), updated \(second.updated)")
        #expect(second.generatedKeys.isEmpty)
        #expect(try await DeclarationHarness.export(provider) == before)
    }

    @Test("what differs from the file is updated")
    func updatesWhatDiffers() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        _ = try await file.apply(to: provider, prune: false)
        let changed = try EnvironmentFile.parse(
            DeclarationHarness.juice.replacingOccurrences(of: "last_name: Ruiz", with: "last_name: Ruiz Díaz"), name: "siwa.yaml")
        let report = try await changed.apply(to: provider, prune: false)
        #expect(report.updated == ["Apple ID maria.ruiz@example.com"])
        #expect(try await provider.activeAccount(appleID: "maria.ruiz@example.com")?.lastName == "Ruiz Díaz")
    }

    @Test("what the store has beyond the file is reported, and removed only when pruning")
    func reportsAndPrunes() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        _ = try await file.apply(to: provider, prune: false)
        _ = try await provider.createAccount(appleID: "extra@example.com", password: "pw", firstName: "E", lastName: "X")
        let report = try await file.apply(to: provider, prune: false)
        #expect(report.notInFile == ["Apple ID extra@example.com"])
        #expect(try await provider.activeAccount(appleID: "extra@example.com") != nil)
        let pruned = try await file.apply(to: provider, prune: true)
        #expect(pruned.removed == ["Apple ID extra@example.com"])
        #expect(try await provider.activeAccount(appleID: "extra@example.com") == nil)
    }

    @Test("two fresh engines started from one file get the same Team ID, Key ID, client IDs and subs")
    func sameFileSameIdentities() async throws {
        let one = try await DeclarationHarness.freshProvider(random: "one")
        let two = try await DeclarationHarness.freshProvider(random: "two")
        _ = try await file.apply(to: one, prune: false)
        _ = try await file.apply(to: two, prune: false)
        let exported = try await DeclarationHarness.export(one)
        #expect(try await DeclarationHarness.export(two) == exported)
        let maria = try #require(exported.appleIDs.first { $0.appleID == "maria.ruiz@example.com" })
        #expect(maria.sub?.split(separator: ".").map(\.count) == [6, 32, 4])
        #expect(exported.teams.first?.teamID?.count == 10)
        #expect(exported.keys.first?.keyID?.count == 10)
    }

    @Test("export, start fresh from it, export again: identical")
    func exportRoundTrip() async throws {
        let original = try await DeclarationHarness.freshProvider()
        _ = try await file.apply(to: original, prune: false)
        let first = try EnvironmentFile.render(try await DeclarationHarness.export(original))
        let fresh = try await DeclarationHarness.freshProvider()
        _ = try await EnvironmentFile.parse(first, name: "export.yaml").apply(to: fresh, prune: false)
        let second = try EnvironmentFile.render(try await DeclarationHarness.export(fresh))
        #expect(second == first)
        #expect(first.contains("team_id:"))
    }

    @Test("siwa.example.yaml, the README's file, loads and applies")
    func exampleFileApplies() async throws {
        let url = DeclarationHarness.packageRoot.appendingPathComponent("siwa.example.yaml")
        let example = try EnvironmentFile.load(contentsOf: url, name: "siwa.example.yaml")
        let provider = try await DeclarationHarness.freshProvider()
        let report = try await example.apply(to: provider, prune: false)
        #expect(report.notInFile.isEmpty)
        #expect(example.declaration.appleIDs.count == 3)
        #expect(try await provider.registeredClient("com.example.juice.web") != nil)
    }
}
