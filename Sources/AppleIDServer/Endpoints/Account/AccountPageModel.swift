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
        let overview = try await provider.accountOverview(accountID: account.id)
        let apps = overview.apps.map { app in
            App(
                groupID: app.consent.groupID.rawValue, name: app.name ?? app.consent.groupID.rawValue,
                since: strings.text("since", locale, values: ["date": formatter.string(from: app.consent.grantedAt)]),
                email: app.consent.email ?? strings.text("email_not_shared", locale), isPrivate: app.consent.isPrivateEmail)
        }
        let relays = overview.identities.compactMap { team in
            team.identity.relayAddress.map { address in
                Relay(
                    teamID: team.identity.teamID.rawValue, teamName: team.teamName ?? team.identity.teamID.rawValue, address: address,
                    forwarding: team.identity.relayForwardingEnabled)
            }
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
