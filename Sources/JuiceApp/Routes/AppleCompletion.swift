import Hummingbird
import SignInWithApple

/// Sign in with Apple, completed: the kit calls this in `GET /auth/apple/complete`, the same-site
/// navigation that follows Apple's callback, and only in the browser that started the sign-in (its
/// `apple_sign_in_browser` cookie). A callback replayed in another browser never gets here: no login CSRF,
/// no link CSRF, and the kit revokes what it issued.
///
/// Then, by the intent kept under the sign-in's `state`: an upgrade attaches the Apple ID to the
/// signed-in password account; an Apple user already known signs in; an unknown one whose verified,
/// real e-mail belongs to a password account is offered to link; anyone else gets a new account
/// made from the first authorization's name and the identity token's e-mail in the statement that
/// creates it. No duplicate accounts.
struct AppleCompletion: Sendable {
    let services: JuiceServices

    func complete(_ result: SignInResult, context: JuiceRequestContext) async throws -> Response {
        // Every start saves an intent (Juice registers no GET start route): none means expired or replayed.
        guard let intent = try await services.intents.take(state: result.state) else { throw UserFacingError.staleSignIn }
        let identity = result.identity
        let firstName = result.profile?.name?.firstName ?? ""
        let lastName = result.profile?.name?.lastName ?? ""
        let refreshToken = result.tokens.refreshToken
        if result.profile?.unsignedEmailDiffered == true {
            context.logger.warning("Sign in with Apple: the unsigned user field's e-mail differs from the identity token's; ignored")
        }
        let existing = try await services.accounts.account(appleSubject: identity.subject)

        if intent.purpose == .upgrade, let accountID = intent.accountID {
            guard let account = context.account, account.id == accountID else { throw UserFacingError.staleSignIn }
            guard existing == nil || existing?.id == accountID else { throw UserFacingError.appleIDInUse }
            try await services.accounts.attachApple(
                accountID: account.id, subject: identity.subject, refreshToken: refreshToken, removePassword: true,
                firstName: firstName, lastName: lastName)
            return try await services.startSession(for: account, next: "/account?upgraded=1", context: context)
        }

        if let existing {
            if let refreshToken { try await services.accounts.updateRefreshToken(accountID: existing.id, refreshToken) }
            return try await services.startSession(for: existing, next: intent.next, context: context)
        }

        let email = identity.email ?? ""
        // A relay address is never linked by: the token says so, and so does either of Apple's relay
        // domains (a token of an era or flow without is_private_email).
        let isPrivate = identity.isPrivateEmail || AppleRelayAddress.isRelayAddress(email)
        if identity.emailVerified == true, !isPrivate, !email.isEmpty,
            let match = try await services.accounts.passwordAccount(email: email), match.appleSubject == nil
        {
            let token = try await services.links.save(
                LinkOffer(
                    accountId: match.id, appleSubject: identity.subject, appleRefreshToken: refreshToken, firstName: firstName,
                    lastName: lastName, next: intent.next, expiresAt: 0))
            var response = JuiceServices.redirect(to: "/link")
            response.setCookie(services.cookies.link(token))
            return response
        }

        let account = try await services.accounts.create(
            NewAccount(
                email: email, emailVerified: identity.emailVerified ?? false, emailIsPrivate: isPrivate,
                firstName: firstName, lastName: lastName, appleSubject: identity.subject, appleRefreshToken: refreshToken))
        // Only when Apple sent no name (not a first authorization, e.g. the data was lost) does Juice ask.
        let next = result.profile?.name == nil ? "/account/name?next=" + PasswordRoutes.queryValue(intent.next) : intent.next
        return try await services.startSession(for: account, next: next, context: context)
    }

    /// Every failure of the callback or the completion the user can cause, as a page with status 400
    /// and a way back.
    func failed(_ error: any Error, context: JuiceRequestContext) throws -> Response {
        context.logger.notice("Sign in with Apple failed", metadata: ["reason": "\(error)"])
        let page: UserFacingError
        switch error {
        case let user as UserFacingError: page = user
        case let callback as CallbackError where callback.isCancellation: page = .cancelled
        case CallbackError.unknownState: page = .staleSignIn
        case CallbackError.otherBrowser, CallbackError.unknownCompletion: page = .otherBrowserOrExpired
        case let token as IdentityTokenError where token.kind == .issuedInTheFuture:
            page = .clockSkew(seconds: (token.tokenTime ?? 0) - (token.now ?? 0))
        case let token as IdentityTokenError where token.kind == .wrongIssuer:
            page = .issuerMismatch(issuer: token.value ?? "", accepted: services.siwa.configuration.environment.issuers)
        default: page = .appleRefused
        }
        return try services.pages.error(page, context: context)
    }
}
