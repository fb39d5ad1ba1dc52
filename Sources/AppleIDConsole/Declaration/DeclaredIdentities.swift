import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// The identities a declaration does not pin, derived from its `seed` and the declared names, so that
/// one file gives the same Team IDs, Key IDs, `sub`s (and, in development mode only, passwords and TOTP
/// secrets) on every fresh start (CI hard-codes them). Each is SHA-256 of the seed, a label and the
/// name (``SeededRandomSource``), shaped as Apple's: predictable by design. Outside development mode a
/// left-out password or TOTP secret is random instead, made once (security review 3, finding 3).
public struct DeclaredIdentities: Sendable {
    public let seed: String

    public init(seed: String?) { self.seed = seed ?? "" }

    private func source(_ label: String, _ name: String) -> SeededRandomSource {
        SeededRandomSource(seed: "\(seed)\n\(label)\n\(name)")
    }

    public func teamID(name: String) -> TeamID {
        TeamID(rawValue: AppleIDProvider.appleStyleIdentifier(source("team", name)))
    }

    public func keyID(team: TeamID, name: String) -> KeyID {
        KeyID(rawValue: AppleIDProvider.appleStyleIdentifier(source("key", "\(team.rawValue)/\(name)")))
    }

    public func subject(team: TeamID, appleID: String) -> Subject {
        TeamIdentities.subject(from: source("sub", "\(team.rawValue)/\(appleID.lowercased())"))
    }

    /// An organization's `org_id`: a version 4 UUID, as the admin API makes them.
    public func organizationID(name: String) -> UUID {
        UUID(uuid: Organizations.version4(source("organization", name).bytes(count: 16)))
    }

    public func password(login: String) -> String {
        source("password", login.lowercased()).string(length: 12, alphabet: DemoSeed.passwordAlphabet)
    }

    public func totpSecret(appleID: String) -> String {
        source("totp", appleID.lowercased()).string(length: 20, alphabet: Credentials.storedSecretAlphabet)
    }
}

/// An Apple ID or a Managed Apple ID of a declaration: what the seed fills in when left out.
protocol DeclaredLogin {
    var login: String { get }
    var password: String? { get set }
    var totpSecret: String? { get set }
    var sub: String? { get set }
}

extension EnvironmentDeclaration.AppleID: DeclaredLogin {
    var login: String { appleID }
}

extension EnvironmentDeclaration.ManagedAccount: DeclaredLogin {
    var login: String { username }
}

extension DeclaredIdentities {
    /// Fills in the `sub` in the first team that `entry` left out, and with `secrets` its password and
    /// TOTP secret.
    fileprivate func fill(_ entry: inout some DeclaredLogin, firstTeam: TeamID?, secrets: Bool) {
        if secrets, entry.password == nil { entry.password = password(login: entry.login) }
        if secrets, entry.totpSecret == nil { entry.totpSecret = totpSecret(appleID: entry.login) }
        if entry.sub == nil, let firstTeam { entry.sub = subject(team: firstTeam, appleID: entry.login).rawValue }
    }
}

extension EnvironmentDeclaration {
    /// This declaration with every identity filled in: pinned values kept, the rest derived. Passwords
    /// and TOTP secrets only `derivingSecrets` (development mode): elsewhere they stay left out.
    public func resolved(derivingSecrets: Bool) -> EnvironmentDeclaration {
        let identities = DeclaredIdentities(seed: seed)
        var copy = self
        for index in copy.teams.indices where copy.teams[index].teamID == nil {
            copy.teams[index].teamID = identities.teamID(name: copy.teams[index].name).rawValue
        }
        for index in copy.keys.indices where copy.keys[index].keyID == nil {
            if let team = try? copy.teamID(named: copy.keys[index].team, at: [.key("keys"), .index(index)]) {
                copy.keys[index].keyID = identities.keyID(team: team, name: copy.keys[index].name).rawValue
            }
        }
        let firstTeam = copy.teams.first?.teamID.map(TeamID.init(rawValue:))
        for index in copy.appleIDs.indices { identities.fill(&copy.appleIDs[index], firstTeam: firstTeam, secrets: derivingSecrets) }
        for index in copy.organizations.indices {
            if copy.organizations[index].orgID == nil {
                copy.organizations[index].orgID = identities.organizationID(name: copy.organizations[index].name).uuidString.lowercased()
            }
            if var accounts = copy.organizations[index].accounts {
                for accountIndex in accounts.indices { identities.fill(&accounts[accountIndex], firstTeam: firstTeam, secrets: derivingSecrets) }
                copy.organizations[index].accounts = accounts
            }
        }
        for index in copy.developers.indices where derivingSecrets && copy.developers[index].password == nil {
            copy.developers[index].password = identities.password(login: copy.developers[index].email)
        }
        return copy
    }

    /// The Team ID of the team named `name`; with one team, a left-out name means it.
    func teamID(named name: String?, at path: [DeclarationPathComponent]) throws -> TeamID {
        let team = name.map { name in teams.first { $0.name == name } } ?? (teams.count == 1 ? teams.first : nil)
        guard let team, let id = team.teamID else {
            throw DeclarationError(
                path: path + [.key("team")],
                reason: name.map { "there is no team named \($0) in the file" } ?? "name the team (the file declares \(teams.count))")
        }
        return TeamID(rawValue: id)
    }
}
