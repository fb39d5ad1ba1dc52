import AppleIDProtocol
import Crypto
import Foundation

extension AppleIDProvider {
    /// Registers a developer team; a Team ID is made up (10 characters, Apple's shape) when none is given.
    public func registerTeam(
        id: TeamID? = nil, name: String, kind: TeamKind = .organization, country: String? = nil
    ) async throws
        -> DeveloperTeam
    {
        let team = DeveloperTeam(
            id: id ?? TeamID(rawValue: Self.appleStyleIdentifier(random)), name: name, kind: kind, country: try DeveloperTeam.checkedCountry(country))
        guard try await store.team(team.id) == nil else { throw StoreError.conflict("team \(team.id) exists") }
        try await store.save(team)
        return team
    }

    /// Makes a Sign in with Apple key for a team and primary App ID, as the developer console does:
    /// the store keeps the public key; the private key (PEM, the `.p8` contents) is returned once.
    /// Every team, by Team ID (the admin API's `siwa teams list`).
    public func teams() async throws -> [DeveloperTeam] { try await store.teams() }

    /// A declaration may fix the Key ID and bring its own private key (a `.p8` it names).
    public func registerKey(
        teamID: TeamID, primaryAppID: ClientID, name: String = "", id: KeyID? = nil, privateKeyPEM providedPEM: String? = nil
    ) async throws -> (key: DeveloperKey, privateKeyPEM: String) {
        guard try await store.team(teamID) != nil else { throw RegistrationError.unknownTeam(teamID) }
        guard let group = try await store.appGroup(primaryAppID), group.teamID == teamID else {
            throw RegistrationError.unknownAppGroup(primaryAppID)
        }
        let privateKey: P256.Signing.PrivateKey
        do {
            privateKey = try providedPEM.map { try P256.Signing.PrivateKey(pemRepresentation: $0) } ?? P256.Signing.PrivateKey()
        } catch {
            throw ConsoleError.invalid("The private key is not a P-256 key in PEM (the .p8 file Apple gives).")
        }
        if let id, try await store.developerKey(id) != nil { throw ConsoleError.refused("A key \(id) exists.") }
        let key = DeveloperKey(
            id: id ?? KeyID(rawValue: Self.appleStyleIdentifier(random)), teamID: teamID, primaryAppID: primaryAppID,
            publicKeyPEM: privateKey.publicKey.pemRepresentation, name: name)
        try await store.save(key)
        return (key, providedPEM ?? privateKey.pemRepresentation)
    }

    /// Ten upper-case letters and digits: the shape of Team IDs and Key IDs.
    package static func appleStyleIdentifier(_ random: any RandomSource) -> String {
        random.string(length: 10, alphabet: appleStyleAlphabet)
    }

    /// Whether `text` has that shape (a Team ID or Key ID a declaration pins).
    package static func isAppleStyleIdentifier(_ text: String) -> Bool {
        text.count == 10 && text.allSatisfy { appleStyleAlphabet.contains($0) }
    }

    private static let appleStyleAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"
}

public enum RegistrationError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownTeam(TeamID)
    case unknownAppGroup(ClientID)

    public var description: String {
        switch self {
        case .unknownTeam(let id): "no team \(id)"
        case .unknownAppGroup(let id): "no app group \(id)"
        }
    }
}
