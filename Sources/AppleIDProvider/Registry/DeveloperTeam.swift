import AppleIDProtocol
import Foundation

/// A developer team: owns App IDs, Services IDs and Sign in with Apple keys. `sub` values and relay
/// addresses are scoped to it.
public struct DeveloperTeam: Codable, Sendable, Hashable {
    public var id: TeamID
    public var name: String
    /// Individual or organization: sets the console's limits.
    public var kind: TeamKind
    /// Where the team is based, as an ISO 3166-1 alpha-2 code (`KR`); some of Apple's rules depend on
    /// it (``AppleDatedChange/koreaNotificationEndpoint``). Unset: no country rule applies.
    public var country: String?

    public init(id: TeamID, name: String, kind: TeamKind = .organization, country: String? = nil) {
        self.id = id
        self.name = name
        self.kind = kind
        self.country = country
    }

    /// A country as stored: two ASCII letters, upper-cased; blank is none.
    public static func checkedCountry(_ text: String?) throws -> String? {
        let value = (text ?? "").trimmingCharacters(in: .whitespaces)
        guard !value.isEmpty else { return nil }
        guard value.count == 2, value.allSatisfy({ $0.isASCII && $0.isLetter }) else {
            throw ConsoleError.invalid("The country \(value) is not valid. Enter its two-letter ISO 3166-1 code, such as KR.")
        }
        return value.uppercased()
    }

    /// Apple's rule for teams based in the Republic of Korea (from 1 January 2026): a Services ID is
    /// registered or updated only when its primary App ID has a server-to-server notification endpoint.
    public func needsNotificationEndpointForServicesIDs(asOf day: AppleDate?) -> Bool {
        country == "KR" && AppleDatedChange.koreaNotificationEndpoint.isInEffect(asOf: day)
    }
}

/// A primary App ID and its group: the apps and Services IDs that share one consent (spec §17.1).
public struct AppGroup: Codable, Sendable, Hashable {
    /// The primary App ID's bundle ID, which names the group.
    public var primaryAppID: ClientID
    public var teamID: TeamID
    /// A name shown to users on the consent page.
    public var displayName: String
    /// The server-to-server notification endpoint (one per primary App ID), if registered.
    public var notificationEndpoint: String?

    public init(primaryAppID: ClientID, teamID: TeamID, displayName: String, notificationEndpoint: String? = nil) {
        self.primaryAppID = primaryAppID
        self.teamID = teamID
        self.displayName = displayName
        self.notificationEndpoint = notificationEndpoint
    }
}

/// A Sign in with Apple private key's public half, registered to a team and a primary App ID.
public struct DeveloperKey: Codable, Sendable, Hashable {
    public var id: KeyID
    public var teamID: TeamID
    public var primaryAppID: ClientID
    /// The P-256 public key, PEM-encoded.
    public var publicKeyPEM: String
    /// When the developer revoked the key: client secrets it signed are refused from then on.
    public var revokedAt: Date?
    /// The Key Name the developer gave it in the console (empty for keys made before names, or by the CLI).
    public var name: String

    public init(id: KeyID, teamID: TeamID, primaryAppID: ClientID, publicKeyPEM: String, revokedAt: Date? = nil, name: String = "") {
        self.id = id
        self.teamID = teamID
        self.primaryAppID = primaryAppID
        self.publicKeyPEM = publicKeyPEM
        self.revokedAt = revokedAt
        self.name = name
    }
}
