import Hummingbird

/// A failure the user caused or can act on, shown as a page with a way back (never a stack trace).
struct UserFacingError: Error, Sendable, Hashable {
    var status: HTTPResponse.Status = .badRequest
    var title: String
    var message: String
    var linkHref = "/"
    var linkLabel = "Back to the menu"

    static let formExpired = UserFacingError(
        title: "This form has expired", message: "The page was open too long or came from somewhere else. Please try again.",
        linkHref: "/", linkLabel: "Start again")
    static let cancelled = UserFacingError(
        title: "Sign in with Apple was cancelled", message: "Nothing was changed. You can sign in with Apple or with your password.",
        linkHref: "/signin", linkLabel: "Back to sign-in")
    static let staleSignIn = UserFacingError(
        title: "This sign-in has expired", message: "The sign-in took too long, or this page was already used. Please start again.",
        linkHref: "/signin", linkLabel: "Sign in again")
    static let otherBrowserOrExpired = UserFacingError(
        title: "This sign-in was started in another browser or has expired",
        message: "Please start again. Nothing was changed. If Juice then asks for your name, it is because Apple shares it only once.",
        linkHref: "/signin", linkLabel: "Start again")
    static let appleRefused = UserFacingError(
        title: "Sign in with Apple did not complete", message: "Apple did not confirm the sign-in. Please try again in a moment.",
        linkHref: "/signin", linkLabel: "Back to sign-in")
    /// The Apple ID server's clock is ahead of Juice's (its tokens are "issued in the future"): retrying
    /// cannot help, so the page says what can (issue 14's clock trap).
    static func clockSkew(seconds: Int) -> UserFacingError {
        UserFacingError(
            title: "The clocks disagree",
            message: "The Apple ID server's clock is \(seconds) seconds ahead of Juice's, so Juice cannot trust its sign-in. "
                + "If you moved the local server's clock (siwa clock advance), run `siwa clock reset`; otherwise set both clocks right.",
            linkHref: "/signin", linkLabel: "Back to sign-in")
    }
    /// The Apple ID server signs with another issuer than Juice accepts (it restarted with another
    /// `--host`, `--port` or `--issuer`): retrying cannot help either, so the page says what to check.
    static func issuerMismatch(issuer: String, accepted: [String]) -> UserFacingError {
        UserFacingError(
            title: "The issuer differs",
            message: "The Apple ID server signed this sign-in as \(issuer), but Juice accepts only "
                + "\(accepted.joined(separator: ", ")). If the server was restarted with another --host, --port or --issuer, "
                + "restart Juice so it reads the server's demo.json again, or start the server with --issuer set to the issuer Juice expects.",
            linkHref: "/signin", linkLabel: "Back to sign-in")
    }
    static let unknownJuice = UserFacingError(
        status: .notFound, title: "We don't have that juice", message: "It may have left the menu.", linkHref: "/", linkLabel: "See the menu")
    static let linkExpired = UserFacingError(
        title: "This link offer has expired", message: "Sign in with Apple again to link your accounts.", linkHref: "/signin",
        linkLabel: "Sign in again")
    static let appleIDInUse = UserFacingError(
        status: .conflict, title: "This Apple ID already has a Juice account",
        message: "Sign out and sign in with Apple to use that account; this account keeps its password.", linkHref: "/account",
        linkLabel: "Back to your account")
}
