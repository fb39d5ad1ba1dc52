import Hummingbird

/// The second step of Sign in with Apple, `GET /auth/apple/complete?token=…`: a top-level navigation
/// that carries Juice's cookies, so the sign-in completes only in the browser that started it.
///
/// Then, by the intent: an upgrade attaches the Apple ID to the signed-in password account; an
/// Apple user already known signs in; an unknown one whose verified, real e-mail belongs to a
/// password account is offered to link; anyone else gets a new account made from the first
/// authorization's name and e-mail in the statement that creates it. No duplicate accounts.
struct AppleCompletion: Sendable {
    static let path = "/auth/apple/complete"

    let services: JuiceServices

    func complete(_ request: Request, context: JuiceRequestContext) async throws -> Response {
        let pending = try await take(request, context: context)
        let intent = pending.intent
        let existing = try await services.accounts.account(appleSubject: pending.appleSubject)

        if intent.purpose == .upgrade, let accountID = intent.accountID {
            guard let account = context.account, account.id == accountID else { throw UserFacingError.staleSignIn }
            guard existing == nil || existing?.id == accountID else { throw UserFacingError.appleIDInUse }
            try await services.accounts.attachApple(
                accountID: account.id, subject: pending.appleSubject, refreshToken: pending.refreshToken, removePassword: true,
                firstName: pending.firstName, lastName: pending.lastName)
            return try await services.startSession(for: account, next: "/account?upgraded=1", context: context)
        }

        if let existing {
            if let refreshToken = pending.refreshToken { try await services.accounts.updateRefreshToken(accountID: existing.id, refreshToken) }
            return try await services.startSession(for: existing, next: intent.next, context: context)
        }

        if pending.emailVerified, !pending.emailIsPrivate, !pending.email.isEmpty,
            let match = try await services.accounts.passwordAccount(email: pending.email), match.appleSubject == nil
        {
            let token = try await services.links.save(
                LinkOffer(
                    accountId: match.id, appleSubject: pending.appleSubject, appleRefreshToken: pending.refreshToken,
                    firstName: pending.firstName, lastName: pending.lastName, next: intent.next, expiresAt: 0))
            var response = JuiceServices.redirect(to: "/link")
            response.setCookie(services.cookies.link(token))
            return response
        }

        let account = try await services.accounts.create(
            NewAccount(
                email: pending.email, emailVerified: pending.emailVerified, emailIsPrivate: pending.emailIsPrivate,
                firstName: pending.firstName, lastName: pending.lastName, appleSubject: pending.appleSubject,
                appleRefreshToken: pending.refreshToken))
        // Only when Apple sent no name (not a first authorization, e.g. the data was lost) does Juice ask.
        let next = pending.name == nil ? "/account/name?next=" + PasswordRoutes.queryValue(intent.next) : intent.next
        return try await services.startSession(for: account, next: next, context: context)
    }

    /// Consumes the pending completion of the URL's token, and keeps it only if this browser started
    /// the sign-in. An unknown, used or expired token, or another browser, changes nothing in Juice.
    private func take(_ request: Request, context: JuiceRequestContext) async throws -> PendingCompletion {
        var taken = PendingCompletionStore.Taken.none
        if let token = request.uri.queryParameters.get("token") { taken = try await services.completions.take(token: token) }
        switch taken {
        case .none:
            context.logger.notice("Sign in with Apple completion refused", metadata: ["reason": "unknown or used token"])
            throw UserFacingError.otherBrowserOrExpired
        case .expired(let pending):
            context.logger.notice("Sign in with Apple completion refused", metadata: ["reason": "expired"])
            await abandon(pending, context: context)
            throw UserFacingError.otherBrowserOrExpired
        case .live(let pending):
            guard !context.browserTokenIsNew, pending.intent.browserHash == context.browserBinding else {
                // A sign-in someone else started, opened in this browser: login or link CSRF, or a copied link.
                context.logger.warning(
                    "Sign in with Apple completion refused",
                    metadata: ["reason": "started in another browser", "purpose": "\(pending.intent.purpose.rawValue)"])
                await abandon(pending, context: context)
                throw UserFacingError.otherBrowserOrExpired
            }
            return pending
        }
    }

    /// A sign-in that will never complete: its Apple authorization is revoked (best effort), which
    /// also makes the person's next sign-in a first authorization again, so the name Apple sent
    /// only this once is not lost for good.
    private func abandon(_ pending: PendingCompletion, context: JuiceRequestContext) async {
        guard let refreshToken = pending.refreshToken else { return }
        do {
            try await services.siwa.tokens.revoke(token: refreshToken)
        } catch {
            context.logger.notice("Could not revoke an abandoned Sign in with Apple authorization", metadata: ["reason": "\(error)"])
        }
    }
}
