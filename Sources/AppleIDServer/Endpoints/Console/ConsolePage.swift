import AppleIDProtocol
import AppleIDProvider

/// A console page before its frame: the template, the navigation's section, and what the template
/// reads under `{{#content}}`.
struct ConsolePage: Sendable {
    let template: String
    let section: String
    let content: any Sendable
}

/// The frame every console page shares: the developer, the team switcher, the navigation, the
/// confirmation or error of the last action.
struct ConsolePageModel: Sendable {
    let locale: String
    let t: [String: String]
    let wide: Bool
    let csrf: String
    let developer: String
    let developerEmail: String
    let teamName: String
    let teamID: String
    let teamKind: String
    let teams: [TeamChoice]
    let hasSeveralTeams: Bool
    /// The navigation's current section, as `{{#section.keys}}`.
    let section: [String: Bool]
    let message: String?
    let error: String?
    let developmentMode: Bool
    /// Console pages are laid out as Apple's portal: a sidebar beside the section's pane.
    let portal = true
    let content: any Sendable
}

/// A team in the switcher: its name, with its Team ID beside it.
struct TeamChoice: Sendable {
    let id: String
    let name: String
    let selected: Bool
}

/// Every field a console form may carry, under its HTML name.
struct ConsoleForm: Decodable, Sendable {
    var csrf: String?
    var locale: String?
    var email: String?
    var password: String?
    var teamID: String?
    var bundleID: String?
    var description: String?
    var primaryAppID: String?
    var identifier: String?
    var domains: String?
    /// An App ID's associated `webcredentials` domains, one a line.
    var webcredentials: String?
    var returnURLs: String?
    var groupID: String?
    var url: String?
    var sources: String?
    /// An e-mail source's DKIM public key (blank: DKIM off).
    var dkim: String?
    var value: String?
    var name: String?
    /// The new password's confirmation, and the current password when changing it.
    var confirm: String?
    var current: String?
    /// A register flow's identifier type (`app` or `services`), the step to go to, and its capability.
    var type: String?
    var go: String?
    var signInWithApple: String?

    enum CodingKeys: String, CodingKey {
        case csrf, locale, email, password, description, identifier, domains, url, sources, dkim, value, name, confirm, current, type, go
        case webcredentials
        case teamID = "team_id"
        case bundleID = "bundle_id"
        case primaryAppID = "primary_app_id"
        case returnURLs = "return_urls"
        case groupID = "group_id"
        case signInWithApple = "sign_in_with_apple"
    }

    /// The form as a refused page shows it again: what the developer typed, without the CSRF token
    /// and without any password (a password is never written back into a page).
    var kept: ConsoleForm {
        var kept = self
        kept.csrf = nil
        kept.password = nil
        kept.confirm = nil
        kept.current = nil
        return kept
    }
}

extension [PrimaryChoice] {
    /// The team's primary App IDs as a select's options, `chosen` selected.
    init(_ groups: [AppGroup], chosen: String?) {
        self = groups.map { PrimaryChoice(id: $0.primaryAppID.rawValue, selected: WireMatch.exact($0.primaryAppID.rawValue, chosen)) }
    }
}
