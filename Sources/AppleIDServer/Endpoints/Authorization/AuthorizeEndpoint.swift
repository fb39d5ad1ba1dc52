import AppleIDProtocol
import AppleIDProvider
import Hummingbird
import Logging

/// `GET` and `POST /auth/authorize` (spec §3): validate, then sign in and consent in pages, or,
/// in headless mode, approve at once as the configured Apple ID.
struct AuthorizeEndpoint {
    let provider: AppleIDProvider
    let pages: InteractionPages
    let delivery: AuthorizationDelivery
    let cookies: BrowserCookies
    /// Headless mode: approve every request as this Apple ID with the default choices.
    let autoApproveAppleID: String?

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/auth/authorize") { request, _ in
            let authorization: AuthorizationRequest
            do throws(OAuthError) {
                authorization = try FormDecoding.decodeQuery(AuthorizationRequest.self, from: request)
            } catch {
                throw pages.error(error, locale: PageLocale.choose(for: request))
            }
            return try await authorize(authorization, request: request)
        }
        router.post("/auth/authorize") { request, _ in
            let authorization: AuthorizationRequest
            do throws(OAuthError) {
                authorization = try await FormDecoding.decodeForm(AuthorizationRequest.self, from: request)
            } catch {
                throw pages.error(error, locale: PageLocale.choose(for: request))
            }
            return try await authorize(authorization, request: request)
        }
    }

    private func authorize(_ authorization: AuthorizationRequest, request: Request) async throws -> Response {
        if let appleID = autoApproveAppleID {
            switch try await provider.authorizeHeadless(authorization, appleID: appleID) {
            case .answered(let answer): return try delivery.deliver(answer)
            case .rejected(let error): throw pages.error(error, locale: PageLocale.choose(for: request))
            case .unknownAppleID(let appleID):
                throw pages.error(
                    OAuthError(.serverError, status: 500, reason: "the auto-approve Apple ID \(appleID) does not exist"),
                    locale: PageLocale.choose(for: request))
            }
        }
        switch try await provider.validate(authorization) {
        case .rejected(let error):
            throw pages.error(error, locale: PageLocale.choose(for: request))
        case .redirectedError(_, let answer):
            return try delivery.deliver(answer)
        case .valid(let validated):
            let binding = cookies.browserBinding(in: request)
            let interaction = try await provider.interactions.start(
                validated, browserBinding: binding.value, sessionCookie: cookies.sessionValue(in: request))
            var response = try await pages.render(interaction, message: nil, locale: PageLocale.choose(for: request))
            if binding.isNew { response.setCookie(cookies.bindingCookie(binding.value)) }
            return response
        }
    }
}
