import AppleIDProtocol
import AppleIDProvider
import Foundation

/// A declaration's Apple IDs (with their `sub` in each declared team) and console developers.
extension AppleIDProvider {
    func applyAppleIDs(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        for (index, declared) in declaration.appleIDs.enumerated() {
            let path: [DeclarationPathComponent] = [.key("apple_ids"), .index(index)]
            // A password or TOTP secret the file leaves out is made for a new Apple ID only: an existing
            // one keeps what it has.
            let totpSecret = try declared.totpSecret.map { try Self.checkTOTPSecret($0, at: path) }
            let account: AppleIDAccount
            if var existing = try await store.activeAccount(appleID: declared.appleID) {
                var change = await Self.change(
                    from: existing, firstName: declared.firstName, lastName: declared.lastName, twoFactor: declared.twoFactor,
                    password: declared.password)
                let email = declared.email ?? declared.appleID
                if existing.email != email { change.email = email }
                let status = declared.realUserStatus ?? .likelyReal
                if existing.realUserStatus != status { change.realUserStatus = status }
                if change != AccountChange() {
                    existing = try await updateAccount(appleID: declared.appleID, change) ?? existing
                    report.updated.append("Apple ID \(declared.appleID)")
                }
                if let totpSecret, existing.totpSecret != totpSecret {
                    existing.totpSecret = totpSecret
                    try await store.save(existing)
                    report.updated.append("TOTP secret of \(declared.appleID)")
                }
                account = existing
            } else {
                let password = declared.password ?? leftOutPassword(login: declared.appleID, seed: declaration.seed, report: &report)
                let totpSecret = totpSecret ?? leftOutTOTPSecret(login: declared.appleID, seed: declaration.seed)
                account = try await located(path) {
                    try await createAccount(
                        appleID: declared.appleID, password: password, firstName: declared.firstName, lastName: declared.lastName,
                        email: declared.email, realUserStatus: declared.realUserStatus ?? .likelyReal, twoFactorEnabled: declared.twoFactor ?? true,
                        totpSecret: totpSecret)
                }
                report.created.append("Apple ID \(declared.appleID)")
            }
            try await assignSubjects(firstTeam: declared.sub, to: account, in: declaration, report: &report)
        }
    }

    /// A password for a new login the file left without one: in development mode derived from the
    /// seed (predictable by design, so CI can hard-code it); outside it random, made once and reported
    /// for the caller to keep, since whoever has the file could compute a derived one.
    func leftOutPassword(login: String, seed: String?, report: inout DeclarationReport) -> String {
        if configuration.developmentMode { return DeclaredIdentities(seed: seed).password(login: login) }
        let password = random.string(length: 20, alphabet: DemoSeed.passwordAlphabet)
        report.generatedPasswords[login.lowercased()] = password
        return password
    }

    /// A TOTP secret for a new login the file left without one: derived in development mode, random
    /// outside it (the stored secret is what demo.json and the account page show).
    func leftOutTOTPSecret(login: String, seed: String?) -> String {
        if configuration.developmentMode { return DeclaredIdentities(seed: seed).totpSecret(appleID: login) }
        return random.string(length: 32, alphabet: Credentials.storedSecretAlphabet)
    }

    /// The stored form of a TOTP secret the file gives.
    static func checkTOTPSecret(_ secret: String, at path: [DeclarationPathComponent]) throws -> String {
        let totpSecret = secret
        guard totpSecret.count >= 16, totpSecret.allSatisfy({ Credentials.storedSecretAlphabet.contains($0) }) else {
            throw DeclarationError(path: path + [.key("totp_secret")], reason: "a TOTP secret is 16 or more characters of A-Z and 2-7")
        }
        return totpSecret
    }

    /// The account's `sub` in each declared team: the declared one in the first, derived ones in the others.
    func assignSubjects(
        firstTeam sub: String?, to account: AppleIDAccount, in declaration: EnvironmentDeclaration, report: inout DeclarationReport
    ) async throws {
        let identities = DeclaredIdentities(seed: declaration.seed)
        for (teamIndex, team) in declaration.teams.enumerated() {
            let teamID = TeamID(rawValue: team.teamID ?? "")
            let subject = teamIndex == 0 ? Subject(rawValue: sub ?? "") : identities.subject(team: teamID, appleID: account.appleID)
            try await assign(subject, to: account, teamID: teamID, report: &report)
        }
    }

    /// The `sub` is made when the Apple ID first meets the team; declared, it is made now. One already
    /// used (in tokens an app holds) is never changed.
    private func assign(_ subject: Subject, to account: AppleIDAccount, teamID: TeamID, report: inout DeclarationReport) async throws {
        if let identity = try await store.teamIdentity(accountID: account.id, teamID: teamID) {
            if identity.subject != subject { report.kept.append("\(account.appleID) keeps its sub \(identity.subject) in team \(teamID)") }
            return
        }
        _ = try await store.insertTeamIdentity(TeamIdentity(accountID: account.id, teamID: teamID, subject: subject))
    }

    /// The fields of `existing` that differ from the declaration; a password only when the file gives
    /// one and it no longer matches (a left-out password never replaces the one the account has).
    static func change(
        from existing: AppleIDAccount, firstName: String, lastName: String, twoFactor: Bool?, password: String?
    ) async
        -> AccountChange
    {
        var change = AccountChange()
        if existing.firstName != firstName { change.firstName = firstName }
        if existing.lastName != lastName { change.lastName = lastName }
        let twoFactor = twoFactor ?? true
        if existing.twoFactorEnabled != twoFactor { change.twoFactorEnabled = twoFactor }
        if let password, await !Credentials.verifyPassword(password, hash: existing.passwordHash) { change.password = password }
        return change
    }

    func applyDevelopers(_ declaration: EnvironmentDeclaration, to report: inout DeclarationReport) async throws {
        for (index, declared) in declaration.developers.enumerated() {
            let path: [DeclarationPathComponent] = [.key("developers"), .index(index)]
            guard try await developerStore.developer(email: Self.developerLogin(declared.email)) == nil else { continue }
            let teamIDs = try (declared.teams ?? declaration.teams.map(\.name)).enumerated().map { teamIndex, name in
                try declaration.teamID(named: name, at: path + [.key("teams"), .index(teamIndex)])
            }
            let password = declared.password ?? leftOutPassword(login: declared.email, seed: declaration.seed, report: &report)
            _ = try await located(path) {
                try await registerDeveloper(email: declared.email, name: declared.name, password: password, teamIDs: teamIDs)
            }
            report.created.append("developer \(declared.email)")
        }
    }
}
