import Foundation
import Hummingbird

/// Sign-up and sign-in with e-mail and password, and sign-out.
struct PasswordRoutes: Sendable {
    let services: JuiceServices

    static let wrongCredentials = "The e-mail or password is not right. If you created your account with Apple, use Sign in with Apple above."

    struct SignInForm: Decodable, CSRFProtected {
        var csrf: String
        var next: String?
        var email: String
        var password: String
    }

    struct SignUpForm: Decodable, CSRFProtected {
        var csrf: String
        var next: String?
        var email: String
        var password: String
        var first_name: String
        var last_name: String?
    }

    func register(on router: Router<JuiceRequestContext>) {
        router.get("/signin") { request, context in
            let next = FormInput.localPath(request.uri.queryParameters.get("next"))
            let reason = next.hasPrefix("/order/") ? "Sign in to place your order. Browsing never needs an account." : nil
            return try await signInPage(next: next, reason: reason, request: request, context: context)
        }
        router.post("/signin") { request, context in
            let form = try await FormInput.decode(SignInForm.self, from: request, context: context)
            let next = FormInput.localPath(form.next)
            let email = form.email.trimmingCharacters(in: .whitespaces).lowercased()
            if let lockedUntil = try await services.passwordAttempts.admit(email: email) {
                return try await signInPage(
                    next: next, message: services.passwordAttempts.lockedMessage(until: lockedUntil), email: email, request: request,
                    context: context, status: .tooManyRequests)
            }
            // One answer, and one bcrypt's time, whether the e-mail is unknown, belongs to an account
            // that signs in with Apple only, or has a wrong password: the page never tells which
            // e-mails have accounts.
            let account = try await services.accounts.passwordAccount(email: email)
            guard let account, let hash = account.passwordHash, await services.passwords.verify(form.password, hash: hash) else {
                if account?.passwordHash == nil { _ = await services.passwords.verifyNothing(form.password) }
                return try await signInPage(next: next, message: Self.wrongCredentials, email: email, request: request, context: context)
            }
            try await services.passwordAttempts.succeeded(email: email)
            return try await services.startSession(for: account, next: next, context: context)
        }
        router.get("/signup") { request, context in
            try signUpPage(next: FormInput.localPath(request.uri.queryParameters.get("next")), context: context)
        }
        router.post("/signup") { request, context in
            let form = try await FormInput.decode(SignUpForm.self, from: request, context: context)
            let next = FormInput.localPath(form.next)
            let email = form.email.trimmingCharacters(in: .whitespaces).lowercased()
            let firstName = String(form.first_name.trimmingCharacters(in: .whitespaces).prefix(100))
            let lastName = String((form.last_name ?? "").trimmingCharacters(in: .whitespaces).prefix(100))
            guard email.contains("@"), email.count <= 254 else {
                return try signUpPage(next: next, message: "Please enter an e-mail address.", form: form, context: context)
            }
            guard form.password.count >= 8 else {
                return try signUpPage(next: next, message: "The password needs at least 8 characters.", form: form, context: context)
            }
            guard try await !services.accounts.emailIsTaken(email) else {
                return try signUpPage(
                    next: next, message: "An account with this e-mail exists: sign in instead.", form: form, context: context)
            }
            let account = try await services.accounts.create(
                NewAccount(
                    email: email, emailVerified: false, firstName: firstName, lastName: lastName,
                    passwordHash: await services.passwords.hash(form.password)))
            return try await services.startSession(for: account, next: next, context: context)
        }
        router.post("/signout") { request, context in
            _ = try await FormInput.decode(CSRFOnlyForm.self, from: request, context: context)
            if let token = context.sessionToken { try await services.sessions.end(token: token) }
            var response = JuiceServices.redirect(to: "/")
            response.setCookie(services.cookies.expired(JuiceCookies.session))
            return response
        }
    }

    /// The sign-in page. Its Sign in with Apple button is Sign in with Apple JS's, in popup mode. The
    /// page itself starts nothing and writes nothing: pressing the button posts the form's CSRF token
    /// to `/signin/apple/script` (``AppleSignInRoutes``), which starts the sign-in for this browser
    /// and answers the script's configuration. Without JavaScript, the redirect form below it starts
    /// the sign-in in this window.
    func signInPage(
        next: String, reason: String? = nil, message: String? = nil, email: String = "", request: Request, context: JuiceRequestContext,
        status: HTTPResponse.Status? = nil
    ) async throws -> Response {
        let scriptURL = services.siwa.requests.environment.scriptURL()
        return try services.pages.render(
            "signin", title: "Sign in",
            [
                "next": next, "nextQuery": Self.queryValue(next), "reason": reason, "message": message, "email": email,
                "appleTitle": "Sign in with Apple", "appleScript": ["url": scriptURL],
            ], context: context, status: status ?? (message == nil ? .ok : .badRequest),
            scriptSources: ["'self'", Self.origin(of: scriptURL)])
    }

    /// `scheme://host[:port]` of `url`, for the page's Content-Security-Policy.
    static func origin(of url: String) -> String {
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host else { return "'none'" }
        return scheme + "://" + host + (components.port.map { ":\($0)" } ?? "")
    }

    func signUpPage(next: String, message: String? = nil, form: SignUpForm? = nil, context: JuiceRequestContext) throws -> Response {
        try services.pages.render(
            "signup", title: "Sign up",
            [
                "next": next, "nextQuery": Self.queryValue(next), "message": message, "email": form?.email ?? "",
                "firstName": form?.first_name ?? "", "lastName": form?.last_name ?? "", "appleTitle": "Continue with Apple",
            ], context: context, status: message == nil ? .ok : .badRequest)
    }

    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics.union(.init(charactersIn: "-._~/"))) ?? "/"
    }
}
