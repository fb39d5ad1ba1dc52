import AppleIDProtocol
import AppleIDProvider
import Crypto
import Foundation
import Hummingbird
import Synchronization

/// `/account`: the Apple ID user's own pages. Sign in (password, then the two-factor code), see the
/// apps using the Apple ID and stop using it with one, switch Hide My Email forwarding, delete the
/// Apple ID. Plain HTML forms; every POST carries a CSRF token derived from the session cookie
/// (which is HttpOnly and SameSite=Lax, so another site can neither read nor send it).
struct AccountEndpoints {
    static let pendingCookie = "siwa_account_pending"

    let provider: AppleIDProvider
    let renderer: PageRenderer
    let cookies: BrowserCookies
    let developmentMode: Bool
    let pending = PendingAccountSignIns()

    struct Form: Decodable {
        var csrf: String?
        var appleID: String?
        var password: String?
        var code: String?
        var groupID: String?
        var teamID: String?
        var forwarding: String?
        var confirm: String?

        enum CodingKeys: String, CodingKey {
            case csrf, password, code, forwarding, confirm
            case appleID = "apple_id"
            case groupID = "group_id"
            case teamID = "team_id"
        }
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/account") { request, _ in
            guard let (account, cookie) = try await signedIn(request) else { return try signInPage() }
            return try await accountPage(account, cookie: cookie, message: nil)
        }
        router.post("/account/sign-in") { request, _ in
            let form = try await decode(request)
            guard let account = try await provider.interactions.accountForSignIn(appleID: form.appleID ?? "", password: form.password ?? "")
            else { return try signInPage(message: "Your Apple ID or password was incorrect.", status: .unauthorized) }
            if !account.twoFactorEnabled, let session = try await provider.interactions.startBrowserSession(accountID: account.id, code: nil) {
                var response = Response(status: .seeOther, headers: [.location: "/account"])
                response.setCookie(cookies.sessionCookie(session, maxAge: Int(provider.configuration.browserSessionLifetime)))
                return response
            }
            let token = provider.random.hex(bytes: 32)
            pending.start(token: token, accountID: account.id, now: provider.clock.now())
            var response = try codePage(account)
            response.setCookie(
                Cookie(name: Self.pendingCookie, value: token, path: "/account", secure: cookies.secure, httpOnly: true, sameSite: .lax))
            return response
        }
        router.post("/account/verify") { request, _ in
            let form = try await decode(request)
            guard let token = request.cookies[Self.pendingCookie]?.value, let accountID = pending.account(token: token, now: provider.clock.now()),
                let account = try await provider.store.account(id: accountID)
            else { return try signInPage(message: "Start again: this sign-in expired.", status: .badRequest) }
            guard let session = try await provider.interactions.startBrowserSession(accountID: accountID, code: form.code ?? "") else {
                guard pending.recordFailure(token: token) else {
                    return try signInPage(message: "Too many failed attempts. Start again.", status: .badRequest)
                }
                return try codePage(account, message: "Incorrect verification code.", status: .unauthorized)
            }
            pending.finish(token: token)
            var response = Response(status: .seeOther, headers: [.location: "/account"])
            response.setCookie(cookies.sessionCookie(session, maxAge: Int(provider.configuration.browserSessionLifetime)))
            return response
        }
        router.post("/account/stop-using") { request, _ in
            try await act(request) { account, form in
                try await provider.lifecycle.stopUsing(accountID: account.id, groupID: ClientID(rawValue: form.groupID ?? ""))
                return "You stopped using your Apple ID with this app. Its next sign-in will ask again what to share."
            }
        }
        router.post("/account/relay") { request, _ in
            try await act(request) { account, form in
                let enabled = form.forwarding == "on"
                try await provider.lifecycle.setRelayForwarding(accountID: account.id, teamID: TeamID(rawValue: form.teamID ?? ""), enabled: enabled)
                return enabled ? "Forwarding is on again." : "Forwarding is off: mail to this address is no longer delivered."
            }
        }
        router.post("/account/delete") { request, _ in
            guard let (account, cookie) = try await signedIn(request) else { return try signInPage() }
            let form = try await decode(request)
            guard form.csrf == Self.csrf(cookie) else { return try signInPage(message: "Start again: the form expired.", status: .badRequest) }
            guard form.confirm == "DELETE" else { return try await accountPage(account, cookie: cookie, message: "Type DELETE to confirm.") }
            try await provider.lifecycle.deleteAccount(accountID: account.id)
            return try signInPage(message: "Your Apple ID was deleted. Every app it signed in to has been told.")
        }
        router.post("/account/sign-out") { request, _ in
            if let (_, cookie) = try await signedIn(request) {
                let form = try await decode(request)
                if form.csrf == Self.csrf(cookie) { try await provider.interactions.endBrowserSession(cookie: cookie) }
            }
            return Response(status: .seeOther, headers: [.location: "/account"])
        }
    }

    /// Runs a signed-in user's action after checking the CSRF token; shows the page with its outcome.
    private func act(_ request: Request, _ action: (AppleIDAccount, Form) async throws -> String) async throws -> Response {
        guard let (account, cookie) = try await signedIn(request) else { return try signInPage() }
        let form = try await decode(request)
        guard form.csrf == Self.csrf(cookie) else { return try signInPage(message: "Start again: the form expired.", status: .badRequest) }
        let message: String
        do {
            message = try await action(account, form)
        } catch let error as LifecycleError {
            message = "That did not work: \(error.description)."
        }
        return try await accountPage(account, cookie: cookie, message: message)
    }

    private func signedIn(_ request: Request) async throws -> (AppleIDAccount, String)? {
        guard let cookie = request.cookies[BrowserCookies.sessionName]?.value,
            let account = try await provider.interactions.account(sessionCookie: cookie)
        else { return nil }
        return (account, cookie)
    }

    private func decode(_ request: Request) async throws -> Form {
        do {
            return try await FormDecoding.decodeForm(Form.self, from: request)
        } catch {
            throw HTTPError(.badRequest, message: "The form could not be read.")
        }
    }

    static func csrf(_ sessionCookie: String) -> String {
        Hex.encode(SHA256.hash(data: Array(("account-csrf:" + sessionCookie).utf8)))
    }

    private func accountPage(_ account: AppleIDAccount, cookie: String, message: String?) async throws -> Response {
        try renderer.render(
            try await AccountPageModel.load(account: account, csrf: Self.csrf(cookie), message: message, provider: provider), template: "account")
    }

    private func signInPage(message: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        try renderer.render(
            AccountSignInPage(passwordStep: true, codeStep: false, appleID: nil, developmentCode: nil, message: message),
            template: "account_sign_in", status: status)
    }

    private func codePage(_ account: AppleIDAccount, message: String? = nil, status: HTTPResponse.Status = .ok) throws -> Response {
        try renderer.render(
            AccountSignInPage(
                passwordStep: false, codeStep: true, appleID: account.appleID,
                developmentCode: developmentMode ? provider.currentSecondFactorCode(for: account) : nil, message: message),
            template: "account_sign_in", status: status)
    }
}

/// Account sign-ins between the password and the code: ten minutes, five wrong codes.
final class PendingAccountSignIns: Sendable {
    private let entries = Mutex<[String: (accountID: String, started: Date, failures: Int)]>([:])

    func start(token: String, accountID: String, now: Date) {
        entries.withLock { entries in
            entries = entries.filter { now.timeIntervalSince($0.value.started) < 600 }
            entries[token] = (accountID, now, 0)
        }
    }

    func account(token: String, now: Date) -> String? {
        entries.withLock { entries in
            guard let entry = entries[token], now.timeIntervalSince(entry.started) < 600 else { return nil }
            return entry.accountID
        }
    }

    /// Counts a wrong code; `false` once the attempts are used up (the sign-in is then forgotten).
    func recordFailure(token: String) -> Bool {
        entries.withLock { entries in
            guard var entry = entries[token] else { return false }
            entry.failures += 1
            guard entry.failures < 5 else {
                entries[token] = nil
                return false
            }
            entries[token] = entry
            return true
        }
    }

    func finish(token: String) { _ = entries.withLock { $0.removeValue(forKey: token) } }
}
