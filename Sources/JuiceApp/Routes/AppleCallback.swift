import Foundation
import Hummingbird
import SignInWithApple

/// What Juice does with a completed Sign in with Apple, by the intent kept under its state.
///
/// No duplicate accounts: an Apple user already known signs in; an unknown one whose verified, real
/// e-mail belongs to a password account is offered to link; anyone else gets a new account made from
/// the first authorization's name and e-mail in the statement that creates it.
struct AppleCallback: Sendable {
    let services: JuiceServices

    func complete(_ result: SignInResult, context: JuiceRequestContext) async throws -> Response {
        // Started by the kit's own GET route (no intent saved): a plain sign-in.
        let intent = try await services.intents.take(state: result.state) ?? SignInIntent(purpose: .signIn, next: "/account")
        let subject = result.identity.subject
        let refreshToken = result.tokens.refreshToken
        let existing = try await services.accounts.account(appleSubject: subject)

        if intent.purpose == .upgrade, let accountID = intent.accountID {
            guard existing == nil || existing?.id == accountID else { throw UserFacingError.appleIDInUse }
            guard let account = try await services.accounts.account(id: accountID) else { throw UserFacingError.staleSignIn }
            try await services.accounts.attachApple(
                accountID: account.id, subject: subject, refreshToken: refreshToken, removePassword: true,
                firstName: result.user?.name?.firstName ?? "", lastName: result.user?.name?.lastName ?? "")
            return try await services.startSession(for: account, next: "/account?upgraded=1", context: context)
        }

        if let existing {
            if let refreshToken { try await services.accounts.updateRefreshToken(accountID: existing.id, refreshToken) }
            return try await services.startSession(for: existing, next: intent.next, context: context)
        }

        let email = result.identity.email ?? result.user?.email ?? ""
        if result.identity.emailVerified == true, !result.identity.isPrivateEmail, !email.isEmpty,
            let match = try await services.accounts.passwordAccount(email: email), match.appleSubject == nil
        {
            let token = try await services.links.save(
                LinkOffer(
                    accountId: match.id, appleSubject: subject, appleRefreshToken: refreshToken,
                    firstName: result.user?.name?.firstName ?? "", lastName: result.user?.name?.lastName ?? "", next: intent.next,
                    expiresAt: 0))
            var response = JuiceServices.redirect(to: "/link")
            response.setCookie(services.cookies.link(token))
            return response
        }

        let account = try await services.accounts.create(
            NewAccount(
                email: email, emailVerified: result.identity.emailVerified ?? false, emailIsPrivate: result.identity.isPrivateEmail,
                firstName: result.user?.name?.firstName ?? "", lastName: result.user?.name?.lastName ?? "", appleSubject: subject,
                appleRefreshToken: refreshToken))
        // Only when Apple sent no name (not a first authorization, e.g. the data was lost) does Juice ask.
        let next = result.user?.name == nil ? "/account/name?next=" + PasswordRoutes.queryValue(intent.next) : intent.next
        return try await services.startSession(for: account, next: next, context: context)
    }

    /// Every failure of the callback the user can cause, as a page with status 400 and a way back.
    func failed(_ error: any Error, context: JuiceRequestContext) throws -> Response {
        context.logger.notice("Sign in with Apple failed", metadata: ["reason": "\(error)"])
        let page: UserFacingError
        switch error {
        case let user as UserFacingError: page = user
        case let callback as CallbackError where callback.isCancellation: page = .cancelled
        case CallbackError.unknownState: page = .staleSignIn
        default: page = .appleRefused
        }
        return try services.pages.error(page, context: context)
    }
}
