import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Hummingbird

/// A refusal of the admin API. Endpoints throw it and it renders itself: Apple's JSON error shape,
/// `no-store`, and, unlike the protocol endpoints, the precise reason as `error_description`,
/// because the caller holds the admin token and is trusted.
struct AdminError: Error, HTTPResponseError {
    let refusal: OAuthError

    init(_ refusal: OAuthError) {
        self.refusal = refusal
    }

    /// `invalid_request` with `status` (400 unless told).
    static func invalidRequest(_ reason: String, status: Int = 400) -> AdminError {
        AdminError(OAuthError(.invalidRequest, status: status, reason: reason))
    }

    /// A thing the call names does not exist: 404 `invalid_request` (`invalid_client` for clients).
    static func notFound(_ reason: String, code: OAuthErrorCode = .invalidRequest) -> AdminError {
        AdminError(OAuthError(code, status: 404, reason: reason))
    }

    /// The thing to create exists already: 409.
    static func conflict(_ reason: String) -> AdminError { invalidRequest(reason, status: 409) }

    var status: HTTPResponse.Status { refusal.status }

    func response(from request: Request, context: some RequestContext) throws -> Response {
        try OAuthError(refusal.code, description: refusal.reason, status: refusal.statusCode, reason: refusal.reason)
            .response(from: request, context: context)
    }
}

extension AdminError {
    /// The admin rendering of the engine's refusals, in one place: what the call names is missing
    /// (404), or the request is refused (400). `nil` for any other error, which stays a 500.
    init?(engineRefusal error: any Error) {
        switch error {
        case let error as AdminError: self = error
        case let error as ConsoleError:
            self = error.kind == .notFound ? .notFound(error.message, code: .invalidClient) : .invalidRequest(error.message)
        case let error as RegistrationError: self = .notFound(error.description)
        case let error as OrganizationError:
            if case .unknownOrganization = error { self = .notFound(error.description) } else { self = .invalidRequest(error.description) }
        // The thing to create exists already, in the store's words ("Apple ID … already exists").
        case StoreError.conflict(let what): self = .conflict(what)
        case TransferError.sameTeam(let team): self = .invalidRequest(TransferError.sameTeam(team).description)
        case let error as TransferError: self = .notFound(error.description)
        // Every lifecycle refusal has been a 400, an unknown app group included (kept for scripts).
        case let error as LifecycleError: self = .invalidRequest(error.description)
        // What Hummingbird refuses before an endpoint runs (a body that is not JSON, a value of the
        // wrong type, a parameter of the wrong shape) answers the documented shape too.
        case let error as HTTPError where (400..<500).contains(error.status.code):
            self = .invalidRequest(error.body ?? error.status.reasonPhrase, status: error.status.code)
        default: return nil
        }
    }
}

/// Renders the engine's refusals thrown by admin endpoints as ``AdminError``s, so that no endpoint
/// catches them one by one.
struct AdminRefusalMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        do {
            return try await next(request, context)
        } catch {
            throw AdminError(engineRefusal: error) ?? error
        }
    }
}
