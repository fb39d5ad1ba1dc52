import Hummingbird

/// The link offer (an Apple sign-in whose e-mail belongs to a password account) and the one case
/// Juice asks for a name: an Apple account created without the first authorization's data.
struct LinkRoutes: Sendable {
    let services: JuiceServices

    struct LinkForm: Decodable, CSRFProtected {
        var csrf: String
        var password: String
    }

    struct NameForm: Decodable, CSRFProtected {
        var csrf: String
        var next: String?
        var first_name: String
        var last_name: String?
    }

    func register(on router: Router<JuiceRequestContext>) {
        router.get("/link") { request, context in
            let (_, account, _) = try await pendingOffer(request)
            return try services.pages.render("link", title: "Link your account", ["email": account.email], context: context)
        }
        router.post("/link") { request, context in
            let form = try await FormInput.decode(LinkForm.self, from: request, context: context)
            let (offer, account, token) = try await pendingOffer(request)
            // The same per-e-mail budget as /signin: a link offer is no second door for guessing.
            if let lockedUntil = try await services.passwordAttempts.admit(email: account.email) {
                return try services.pages.render(
                    "link", title: "Link your account",
                    ["email": account.email, "message": services.passwordAttempts.lockedMessage(until: lockedUntil)], context: context,
                    status: .tooManyRequests)
            }
            guard let hash = account.passwordHash, await services.passwords.verify(form.password, hash: hash) else {
                return try services.pages.render(
                    "link", title: "Link your account", ["email": account.email, "message": "That password is not right."], context: context,
                    status: .badRequest)
            }
            try await services.passwordAttempts.succeeded(email: account.email)
            if try await services.accounts.account(appleSubject: offer.appleSubject) != nil { throw UserFacingError.linkExpired }
            try await services.accounts.attachApple(
                accountID: account.id, subject: offer.appleSubject, refreshToken: offer.appleRefreshToken, removePassword: false,
                firstName: offer.firstName, lastName: offer.lastName)
            try await services.links.remove(token: token)
            var response = try await services.startSession(for: account, next: offer.next, context: context)
            response.setCookie(services.cookies.expired(JuiceCookies.link))
            return response
        }
        router.post("/link/cancel") { request, context in
            _ = try await FormInput.decode(CSRFOnlyForm.self, from: request, context: context)
            if let token = services.cookies.value(JuiceCookies.link, in: request) { try await services.links.remove(token: token) }
            var response = JuiceServices.redirect(to: "/")
            response.setCookie(services.cookies.expired(JuiceCookies.link))
            return response
        }
        router.get("/account/name") { request, context in
            guard context.account != nil else { return JuiceServices.signInFirst(next: "/account") }
            let next = FormInput.localPath(request.uri.queryParameters.get("next"))
            return try services.pages.render("name", title: "Your name", ["next": next], context: context)
        }
        router.post("/account/name") { request, context in
            let form = try await FormInput.decode(NameForm.self, from: request, context: context)
            guard let account = context.account else { return JuiceServices.signInFirst(next: "/account") }
            try await services.accounts.setName(
                accountID: account.id, firstName: String(form.first_name.prefix(100)), lastName: String((form.last_name ?? "").prefix(100)))
            return JuiceServices.redirect(to: FormInput.localPath(form.next))
        }
    }

    private func pendingOffer(_ request: Request) async throws -> (LinkOffer, Account, String) {
        guard let token = services.cookies.value(JuiceCookies.link, in: request), let offer = try await services.links.offer(token: token),
            let account = try await services.accounts.account(id: offer.accountId)
        else { throw UserFacingError.linkExpired }
        return (offer, account, token)
    }
}
