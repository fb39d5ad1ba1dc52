import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What `/account` shows a signed-in Apple ID: the apps using it and its Hide My Email addresses.
struct AccountPageModel {
    struct App {
        let groupID: String
        let name: String
        let since: String
        let email: String
        let isPrivate: Bool
    }

    struct Relay {
        let teamID: String
        let teamName: String
        let address: String
        let forwarding: Bool
    }

    let title: String
    let locale: String
    let t: [String: String]
    let wide = true
    let appleID: String
    let name: String
    let csrf: String
    let apps: [App]
    let hasApps: Bool
    let relays: [Relay]
    let hasRelays: Bool
    let message: String?

    static func load(
        account: AppleIDAccount, csrf: String, message: String?, locale: String, strings: PageStrings, provider: AppleIDProvider
    ) async throws -> AccountPageModel {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withFullDate]
        var apps: [App] = []
        for consent in try await provider.store.consents(accountID: account.id) {
            let group = try await provider.store.appGroup(consent.groupID)
            apps.append(
                App(
                    groupID: consent.groupID.rawValue, name: group?.displayName ?? consent.groupID.rawValue,
                    since: strings.text("since", locale, values: ["date": formatter.string(from: consent.grantedAt)]),
                    email: consent.email ?? strings.text("email_not_shared", locale), isPrivate: consent.isPrivateEmail))
        }
        var relays: [Relay] = []
        for identity in try await provider.store.teamIdentities(accountID: account.id) {
            guard let address = identity.relayAddress else { continue }
            let team = try await provider.store.team(identity.teamID)
            relays.append(
                Relay(
                    teamID: identity.teamID.rawValue, teamName: team?.name ?? identity.teamID.rawValue, address: address,
                    forwarding: identity.relayForwardingEnabled))
        }
        return AccountPageModel(
            title: strings.text("account_heading", locale), locale: locale, t: strings.table(locale), appleID: account.appleID,
            name: "\(account.firstName) \(account.lastName)", csrf: csrf, apps: apps, hasApps: !apps.isEmpty,
            relays: relays, hasRelays: !relays.isEmpty, message: message)
    }
}

/// The account pages' sign-in forms.
struct AccountSignInPage {
    let locale: String
    let t: [String: String]
    let passwordStep: Bool
    let codeStep: Bool
    let appleID: String?
    let developmentCode: String?
    let message: String?
    let csrf: String
}
