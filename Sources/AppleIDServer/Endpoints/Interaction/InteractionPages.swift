import AppleIDProtocol
import AppleIDProvider
import Hummingbird

/// Builds the view of each interaction stage and the error pages.
struct InteractionPages {
    let provider: AppleIDProvider
    let renderer: PageRenderer
    /// Development mode shows the current two-factor code and the precise reason of errors.
    let developmentMode: Bool

    struct StagePage {
        /// The page's language, also carried by the forms so that the POSTs of this sign-in render in the same language.
        let locale: String
        let t: [String: String]
        let appInitial: String
        let id: String
        let csrf: String
        let appName: String
        let clientID: String
        let message: String?
        let signIn: Bool
        let secondFactor: Bool
        let consent: Bool
        let confirm: Bool
        /// A Managed Apple ID's organization does not allow the app: the page says so.
        let notAllowed: Bool
        /// The "at Work & School" variant: the organization's name shown, its name fixed, no Hide My Email.
        let managed: Bool
        let organizationEmail: String?
        let appleID: String?
        let firstName: String
        let lastName: String
        let email: String
        /// The addresses the user may share, the primary one first (and chosen by default).
        let emails: [SharedAddress]
        let relayDomain: String
        let asksForName: Bool
        let asksForEmail: Bool
        let developmentCode: String?
    }

    /// A "Share My Email" choice: the primary address is `share` (what scripts driving the page send),
    /// a further one is the address itself.
    struct SharedAddress {
        let address: String
        let primary: Bool
        /// Stored, not computed: the templates read stored properties only.
        let value: String

        init(address: String, primary: Bool) {
            self.address = address
            self.primary = primary
            self.value = primary ? "share" : address
        }
    }

    func render(_ interaction: Interaction, message: String?, locale: String) async throws -> Response {
        let details = try await provider.interactions.details(of: interaction)
        let account = details.account
        let appName = details.appName
        let choices = details.defaultChoices
        let values = [
            "app": appName, "apple_id": account?.appleID ?? "", "email": account?.email ?? "", "relay_domain": provider.configuration.relayDomain,
            "organization": details.organization?.name ?? "",
        ]
        let page = StagePage(
            locale: locale, t: renderer.strings.table(locale, values: values), appInitial: Self.initial(of: appName),
            id: interaction.id, csrf: interaction.csrfToken, appName: appName,
            clientID: interaction.request.clientID.rawValue, message: message.map { renderer.strings.translate(message: $0, locale) },
            signIn: interaction.stage == .signIn, secondFactor: interaction.stage == .secondFactor,
            consent: interaction.stage == .consent, confirm: interaction.stage == .confirm, notAllowed: interaction.stage == .notAllowed,
            managed: account?.managed != nil, organizationEmail: account?.managed?.organizationEmail,
            appleID: account?.appleID, firstName: choices?.firstName ?? "", lastName: choices?.lastName ?? "",
            email: account?.email ?? "",
            emails: (account?.emails ?? []).enumerated().map { SharedAddress(address: $1, primary: $0 == 0) },
            relayDomain: provider.configuration.relayDomain,
            asksForName: details.asksForName, asksForEmail: details.asksForEmail,
            developmentCode: developmentMode && interaction.stage == .secondFactor ? account.map(provider.currentSecondFactorCode) : nil)
        return try renderer.render(page, template: "interaction", status: message == nil ? .ok : .unauthorized)
    }

    /// The icon slot's letter when the app has no icon: the first letter of its name.
    static func initial(of name: String) -> String {
        name.first { $0.isLetter || $0.isNumber }.map { String($0).uppercased() } ?? "?"
    }

    struct ErrorPage {
        let locale: String
        let t: [String: String]
        let title: String
        let error: String
        let errorDescription: String?
        let reason: String?
    }

    /// An authorization error shown as a page, to be thrown: never a redirect (spec §3.2).
    func error(_ error: OAuthError, locale: String) -> PageError {
        let t = renderer.strings.table(locale)
        return PageError(
            status: error.status, template: "error",
            model: ErrorPage(
                locale: locale, t: t, title: t["bar_title"] ?? "Sign in with Apple", error: error.code.rawValue,
                errorDescription: error.errorDescription,
                reason: developmentMode ? error.reason : nil),
            renderer: renderer)
    }

    /// The page of an expired or unknown interaction, to be thrown. `message`: the engine's
    /// (translated when known); the expiry message by default.
    func expired(message: String? = nil, locale: String) -> PageError {
        let t = renderer.strings.table(locale)
        let description = message.map { renderer.strings.translate(message: $0, locale) } ?? t["message_expired"] ?? ""
        return PageError(
            status: .badRequest, template: "error",
            model: ErrorPage(
                locale: locale, t: t, title: t["bar_title"] ?? "Sign in with Apple", error: "invalid_request", errorDescription: description,
                reason: nil),
            renderer: renderer)
    }
}
