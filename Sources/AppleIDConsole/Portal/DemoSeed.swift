import AppleIDEmailSources
import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation

/// The demo developer team, app group, key and Apple IDs of a first start.
public struct DemoSeed: Sendable {
    public var bundleID: ClientID = "com.example.juice"
    public var servicesID: ClientID = "com.example.juice.web"
    /// ``DemoFacts/juiceReturnURL``: the sample app's callback on its default port.
    public static let juiceReturnURL = DemoFacts.juiceReturnURL
    /// ``DemoFacts/juiceMailSender``: the sender of Juice's order confirmations.
    public static let juiceMailSender = DemoFacts.juiceMailSender
    /// Made-up passwords: lower-case letters and digits without the look-alikes (i, l, o, 0, 1).
    public static let passwordAlphabet = "abcdefghjkmnpqrstuvwxyz23456789"

    public init() {}

    /// Seeds the registry and accounts. Returns the facts and the `.p8` private key (PEM), which
    /// the caller writes once; the store keeps only the public key.
    public func seed(
        provider: AppleIDProvider, server: String, returnURLs: [String], keyFilePath: (KeyID) -> String
    ) async throws -> (facts: DemoFacts, privateKeyPEM: String) {
        let random = provider.random
        let store = provider.store
        let teamID = try await provider.registerTeam(name: "Juice Demo Team").id
        _ = try await provider.createAppID(teamID: teamID, bundleID: bundleID.rawValue, description: "Juice")
        // Saved directly: the demo registers Juice's loopback callback even outside development mode,
        // which the console's Return URL rule refuses.
        try await store.save(
            RegisteredClient(
                id: servicesID, kind: .service, teamID: teamID, groupID: bundleID, returnURLs: returnURLs, description: "Juice on the web"))
        let (key, privateKeyPEM) = try await provider.registerKey(teamID: teamID, primaryAppID: bundleID)
        let keyID = key.id
        _ = try await provider.addEmailSources(Self.juiceMailSender, teamID: teamID)

        var users = [
            DemoFacts.User(
                appleID: "maria.ruiz@example.com", password: random.string(length: 12, alphabet: Self.passwordAlphabet),
                firstName: "Maria", lastName: "Ruiz", email: "maria.ruiz@example.com", realUserStatus: RealUserStatus.likelyReal.rawValue),
            DemoFacts.User(
                appleID: "robin.unknown@example.com", password: random.string(length: 12, alphabet: Self.passwordAlphabet),
                firstName: "Robin", lastName: "Unknown", email: "robin.unknown@example.com", realUserStatus: RealUserStatus.unknown.rawValue),
        ]
        provider.prefetchPasswordHashes(users.map(\.password))
        for index in users.indices {
            let user = users[index]
            let account = try await provider.createAccount(
                appleID: user.appleID, password: user.password, firstName: user.firstName, lastName: user.lastName,
                email: user.email, realUserStatus: RealUserStatus(rawValue: user.realUserStatus) ?? .unknown)
            users[index].totpSecret = Credentials.authenticatorSecret(for: account.totpSecret)
        }
        var facts = DemoFacts(
            server: server, issuer: provider.configuration.issuer, teamID: teamID, keyID: keyID, keyFile: keyFilePath(keyID),
            bundleID: bundleID, servicesID: servicesID, returnURLs: returnURLs, users: users, adminToken: random.hex(bytes: 24))
        facts.developer = try await seedDeveloper(provider: provider, teamID: teamID)
        facts.organization = try await seedSchool(provider: provider)
        return (facts, privateKeyPEM)
    }

    /// The demo school (all apps allowed): a teacher with an organization e-mail, a student with none.
    public func seedSchool(provider: AppleIDProvider) async throws -> DemoFacts.Organization {
        let school = try await provider.organizations.add(
            name: "Juice Demo School", kind: .school, verifiedDomains: ["school.example.edu", "appleid.school.example.edu"])
        let password = { provider.random.string(length: 12, alphabet: Self.passwordAlphabet) }
        let members = [
            DemoFacts.ManagedUser(
                username: "t.teacher@appleid.school.example.edu", password: password(), firstName: "Taylor", lastName: "Teacher",
                email: "t.teacher@school.example.edu"),
            DemoFacts.ManagedUser(
                username: "s.student@appleid.school.example.edu", password: password(), firstName: "Sam", lastName: "Student", email: nil),
        ]
        provider.prefetchPasswordHashes(members.map(\.password))
        for member in members {
            _ = try await provider.organizations.addAccount(
                to: school.id, username: member.username, password: member.password, firstName: member.firstName,
                lastName: member.lastName, email: member.email)
        }
        return DemoFacts.Organization(id: school.claimValue, name: school.name, kind: school.kind.rawValue, members: members)
    }

    /// The demo developer, a member of the demo team, with a made-up password.
    public func seedDeveloper(provider: AppleIDProvider, teamID: TeamID) async throws -> DemoFacts.Developer {
        let developer = DemoFacts.Developer(
            email: "developer@example.com", password: provider.random.string(length: 12, alphabet: Self.passwordAlphabet))
        _ = try await provider.registerDeveloper(email: developer.email, name: "Demo Developer", password: developer.password, teamIDs: [teamID])
        return developer
    }

    /// Registers `current` as the demo Services ID's playground callback (first in the list) and removes
    /// the callbacks `isPlaygroundURL` names as stale (on one server's SQLite file: every earlier
    /// start's). The developer's Return URLs and Juice's stay. Returns the Return URLs now registered
    /// (`nil`: no demo Services ID).
    public func replacePlaygroundReturnURL(
        with current: String?, isPlaygroundURL: (String) -> Bool, provider: AppleIDProvider
    ) async throws -> [String]? {
        guard var client = try await provider.store.client(servicesID) else { return nil }
        // This start's callback first: `demo.json` and scripts take the first Return URL as theirs.
        let fresh = current.map { [$0] } ?? []
        var kept = fresh + client.returnURLs.filter { !isPlaygroundURL($0) && !fresh.containsExactly($0) }
        if !kept.containsExactly(Self.juiceReturnURL) { kept.append(Self.juiceReturnURL) }
        guard kept != client.returnURLs else { return kept }
        client.returnURLs = kept
        try await provider.store.save(client)
        provider.registryDidChange()
        return kept
    }

    /// The demo users whose Apple ID still exists (a deleted one is neither listed nor its password).
    public func existingUsers(_ users: [DemoFacts.User], provider: AppleIDProvider) async throws -> [DemoFacts.User] {
        var existing: [DemoFacts.User] = []
        for user in users {
            guard try await provider.store.activeAccount(appleID: user.appleID) != nil else { continue }
            existing.append(user)
        }
        return existing
    }
}
