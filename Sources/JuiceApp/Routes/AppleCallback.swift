import Foundation
import Hummingbird
import SignInWithApple

/// Apple's `form_post` callback, the first of two steps: the kit has verified it; Juice keeps the
/// result for the browser that started the sign-in and sends the browser on to complete it.
///
/// The callback changes nothing itself: with the real Apple it carries none of Juice's cookies, so
/// it cannot know whose browser it runs in (see ``PendingCompletion``).
struct AppleCallback: Sendable {
    let services: JuiceServices

    func accept(_ result: SignInResult, context: JuiceRequestContext) async throws -> Response {
        // Every start saves an intent (Juice registers no GET start route): none means expired or replayed.
        guard let intent = try await services.intents.take(state: result.state) else { throw UserFacingError.staleSignIn }
        let token = try await services.completions.save(PendingCompletion(result, intent: intent))
        return JuiceServices.redirect(to: AppleCompletion.path, query: [URLQueryItem(name: "token", value: token)])
    }

    /// Every failure of the callback the user can cause, as a page with status 400 and a way back.
    func failed(_ error: any Error, context: JuiceRequestContext) throws -> Response {
        context.logger.notice("Sign in with Apple failed", metadata: ["reason": "\(error)"])
        let page: UserFacingError
        switch error {
        case let user as UserFacingError: page = user
        case let callback as CallbackError where callback.isCancellation: page = .cancelled
        case CallbackError.unknownState: page = .staleSignIn
        case IdentityTokenError.issuedInTheFuture(let issuedAt, let now): page = .clockSkew(seconds: issuedAt - now)
        default: page = .appleRefused
        }
        return try services.pages.error(page, context: context)
    }
}
