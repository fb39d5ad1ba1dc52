import AppleIDConsole
import AppleIDProtocol
import AppleIDProvider
import EnvironmentFile
import Foundation
import Logging

/// `siwa serve --config siwa.yaml`: the file, applied at every start, replaces the demo seed. The
/// file's first team, App ID, Services ID and key, its Apple IDs and first organization become `demo.json`, whose every
/// field but the admin token follows from the file (see README "Environments as code").
enum DeclaredStart {
    /// Applies the file and returns the facts to print and save, and the key's PEM for the playground.
    static func prepare(
        file: EnvironmentFile, prune: Bool, provider: AppleIDProvider, settings: ServeSettings, files: DemoFiles, logger: Logger
    ) async throws -> (DemoFacts, String?) {
        let report: DeclarationReport
        do {
            report = try await file.apply(to: provider, prune: prune)
        } catch let error as EnvironmentFileError {
            throw StartupError.configuration(error)
        }
        // Generated now, kept in the data directory: the store holds only the public key.
        for (keyID, pem) in report.generatedKeys { try files.writeKeyOnce(pem, keyID: keyID) }
        log(report, file: file.name, logger: logger)
        // demo.json's passwords: the file's, derived ones in development mode, or those made at the
        // first start (outside development mode), kept in demo.json across starts.
        let declaration = file.declaration.resolved(derivingSecrets: provider.configuration.developmentMode)
        let previous = (try? files.loadFacts()) ?? nil
        let password = { (pinned: String?, login: String, kept: String?) -> String in
            pinned ?? report.generatedPasswords[login.lowercased()] ?? kept ?? ""
        }
        let key = declaration.keys.first
        let keyID = KeyID(rawValue: key?.keyID ?? "")
        let keyPEM = key?.privateKeyPEM ?? (key == nil ? nil : try? files.readKey(keyID))
        let services = declaration.servicesIDs.first
        var users: [DemoFacts.User] = []
        for declared in declaration.appleIDs {
            let stored = try await provider.activeAccount(appleID: declared.appleID)?.totpSecret
            users.append(
                DemoFacts.User(
                    appleID: declared.appleID,
                    password: password(declared.password, declared.appleID, previous?.users.first { $0.appleID == declared.appleID }?.password),
                    firstName: declared.firstName, lastName: declared.lastName,
                    email: declared.email ?? declared.appleID, realUserStatus: (declared.realUserStatus ?? .likelyReal).rawValue,
                    totpSecret: stored.map(Credentials.authenticatorSecret(for:))))
        }
        var facts = DemoFacts(
            server: settings.baseURL, issuer: provider.configuration.issuer, teamID: TeamID(rawValue: declaration.teams.first?.teamID ?? ""),
            keyID: keyID, keyFile: key.map { $0.p8 ?? files.keyURL(keyID).path } ?? "",
            bundleID: ClientID(rawValue: declaration.appIDs.first?.bundleID ?? ""), servicesID: ClientID(rawValue: services?.identifier ?? ""),
            returnURLs: services?.returnURLs ?? [], users: users,
            // Kept across starts, so scripts that read it once go on working.
            adminToken: previous?.adminToken ?? provider.random.hex(bytes: 24))
        facts.developer = declaration.developers.first.map {
            DemoFacts.Developer(email: $0.email, password: password($0.password, $0.email, previous?.developer?.password))
        }
        facts.organization = declaration.organizations.first.map { organization in
            DemoFacts.Organization(
                id: organization.orgID ?? "", name: organization.name, kind: (organization.kind ?? .school).rawValue,
                members: (organization.accounts ?? []).map { account in
                    let kept = previous?.organization?.members.first { $0.username == account.username }?.password
                    return DemoFacts.ManagedUser(
                        username: account.username, password: password(account.password, account.username, kept),
                        firstName: account.firstName, lastName: account.lastName, email: account.email)
                })
        }
        return (facts, keyPEM)
    }

    /// One line per change, and per thing the store has beyond the file (never a secret).
    static func log(_ report: DeclarationReport, file: String, logger: Logger) {
        for line in report.created { logger.info("\(file): created \(line)") }
        for line in report.updated { logger.info("\(file): updated \(line)") }
        for line in report.removed { logger.notice("\(file): removed \(line) (--config-prune)") }
        for line in report.kept { logger.warning("\(file): \(line)") }
        for line in report.notInFile { logger.notice("\(file): \(line) is in the store but not in the file (kept; --config-prune removes it)") }
        if report.changedNothing { logger.info("\(file): the store already is as declared") }
    }
}
