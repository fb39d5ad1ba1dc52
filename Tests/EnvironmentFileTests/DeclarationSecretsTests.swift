import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Testing

/// What a file's left-out passwords and TOTP secrets become (security review 3, finding 3): derived
/// from the seed only in development mode, random and made once outside it, and never written over a
/// password the store already has.
@Suite("Applying a declaration: secrets the file leaves out")
struct DeclarationSecretsTests {
    let file: EnvironmentFile

    init() throws { file = try EnvironmentFile.parse(DeclarationHarness.juice, name: "siwa.yaml") }

    static let seeded = DeclaredIdentities(seed: "ci")
    static let maria = "maria.ruiz@example.com"

    static func passwordWorks(_ password: String, for appleID: String, on provider: AppleIDProvider) async throws -> Bool {
        let account = try #require(await provider.activeAccount(appleID: appleID))
        return await Credentials.verifyPassword(password, hash: account.passwordHash)
    }

    @Test("outside development mode, a left-out password and TOTP secret are random, not derived from the seed, and reported once")
    func randomOutsideDevelopmentMode() async throws {
        let provider = try await DeclarationHarness.freshProvider(developmentMode: false)
        let report = try await file.apply(to: provider, prune: false)
        #expect(try await !Self.passwordWorks(Self.seeded.password(login: Self.maria), for: Self.maria, on: provider))
        let account = try #require(await provider.activeAccount(appleID: Self.maria))
        #expect(account.totpSecret != Self.seeded.totpSecret(appleID: Self.maria))
        let generated = try #require(report.generatedPasswords[Self.maria])
        #expect(generated.count >= 16)
        #expect(try await Self.passwordWorks(generated, for: Self.maria, on: provider))
        #expect(report.generatedPasswords["robin.unknown@example.com"] == nil, "a pinned password is the file's")
        #expect(try await Self.passwordWorks("robin-password", for: "robin.unknown@example.com", on: provider))

        let again = try await file.apply(to: provider, prune: false)
        #expect(again.generatedPasswords.isEmpty, "made once")
        #expect(again.changedNothing, "kept: updated \(again.updated)")
        #expect(try await Self.passwordWorks(generated, for: Self.maria, on: provider))
    }

    @Test("in development mode a left-out password is derived, but never written over the password the store has")
    func derivedNeverOverwrites() async throws {
        let provider = try await DeclarationHarness.freshProvider(developmentMode: true)
        let first = try await file.apply(to: provider, prune: false)
        #expect(first.generatedPasswords.isEmpty, "derived passwords are the file's, not made")
        #expect(try await Self.passwordWorks(Self.seeded.password(login: Self.maria), for: Self.maria, on: provider))
        _ = try await provider.updateAccount(appleID: Self.maria, AccountChange(password: "chosen-by-maria"))
        let report = try await file.apply(to: provider, prune: false)
        #expect(report.changedNothing, "updated \(report.updated)")
        #expect(try await Self.passwordWorks("chosen-by-maria", for: Self.maria, on: provider))
    }

    @Test("a password the file pins is put back when the store's differs")
    func pinnedPasswordApplied() async throws {
        let provider = try await DeclarationHarness.freshProvider(developmentMode: false)
        _ = try await file.apply(to: provider, prune: false)
        _ = try await provider.updateAccount(appleID: "robin.unknown@example.com", AccountChange(password: "other"))
        let report = try await file.apply(to: provider, prune: false)
        #expect(report.updated == ["Apple ID robin.unknown@example.com"])
        #expect(try await Self.passwordWorks("robin-password", for: "robin.unknown@example.com", on: provider))
    }

    @Test("export writes a fresh random seed each time, and the file says what it protects")
    func exportWritesRandomSeed() async throws {
        let provider = try await DeclarationHarness.freshProvider()
        _ = try await file.apply(to: provider, prune: false)
        let one = try await provider.exportDeclaration(withSecrets: false)
        let two = try await provider.exportDeclaration(withSecrets: false)
        let seed = try #require(one.seed)
        #expect(seed.count >= 32)
        #expect(seed != two.seed)
        #expect(seed != "ci")
        let rendered = try EnvironmentFile.render(one)
        #expect(rendered.hasPrefix("# seed:"))
        #expect(try EnvironmentFile.parse(rendered, name: "export.yaml").declaration.seed == seed)
    }
}
