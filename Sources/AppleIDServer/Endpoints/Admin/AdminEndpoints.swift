import AppleIDAdminAPI
import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import Crypto
import Foundation
import Hummingbird
import HummingbirdAuth

/// The JSON admin API for scripts and tests. Every call needs `Authorization: Bearer <admin token>`.
struct AdminEndpoints {
    let provider: AppleIDProvider
    let relay: MailRelay
    let adminToken: String
    /// The server's own URL, for the links an answer carries (an invitation's).
    let baseURL: String

    static let maximumCount = 1000
    /// The furthest one clock advance may go: 100 years.
    static let longestClockAdvance: Double = 100 * 365.25 * 86_400

    /// A JSON answer of the admin API (sorted keys, ISO 8601 dates, never cached).
    static func json(_ value: some Encodable) throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return Response(
            status: .ok, headers: [.contentType: "application/json;charset=UTF-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(value))))
    }

    func register(on router: Router<AppleIDRequestContext>) {
        let admin = router.group("/admin").add(middleware: AdminTokenMiddleware(tokenDigest: SHA256.hash(data: Array(adminToken.utf8))))
            .add(middleware: AdminRefusalMiddleware())
        AdminLifecycleEndpoints(provider: provider).register(on: admin)
        AdminOrganizationEndpoints(provider: provider).register(on: admin)
        AdminNativeEndpoints(provider: provider).register(on: admin)
        AdminKeychainEndpoints(provider: provider).register(on: admin)
        AdminAccountEndpoints(provider: provider).register(on: admin)
        AdminClientEndpoints(provider: provider).register(on: admin)
        AdminTransferEndpoints(provider: provider).register(on: admin)
        AdminTeamEndpoints(provider: provider).register(on: admin)
        AdminKeyEndpoints(provider: provider).register(on: admin)
        AdminFaultEndpoints(provider: provider).register(on: admin)
        AdminConsoleEndpoints(provider: provider, mail: relay, baseURL: baseURL).register(on: admin)
        AdminMailEndpoints(relay: relay).register(on: admin)
        AdminOpenAPIEndpoint().register(on: admin)
        AdminConfigEndpoints(provider: provider).register(on: admin)
        admin.post("/authorizations") { request, context in
            let order = try await request.decode(as: AuthorizationOrder.self, context: context)
            let count = order.count ?? 1
            guard (1...Self.maximumCount).contains(count) else {
                throw AdminError.invalidRequest("count must be between 1 and \(Self.maximumCount)")
            }
            var authorization = order.authorization
            // `siwa authorize` and scripts leave it out: the code flow, as Apple's JS does.
            if authorization.responseType == nil { authorization.responseType = ResponseType.code.rawValue }
            // Choices left out take the engine's defaults (ConsentChoices.headlessDefault).
            let overrides = ConsentOverrides(firstName: order.firstName, lastName: order.lastName, hideEmail: order.hideEmail)
            var results: [[String: String]] = []
            for _ in 0..<count {
                switch try await provider.authorizeHeadless(authorization, appleID: order.appleID, overrides: overrides) {
                case .answered(let answer):
                    // A refusal after the Return URL was proven travels to the callback in a browser;
                    // here it is the answer, with its reason (exit 1 in `siwa authorize`).
                    if let refusal = answer.refusal { throw AdminError(refusal) }
                    results.append(Dictionary(try answer.wireParameters().map { ($0.name, $0.value) }, uniquingKeysWith: { first, _ in first }))
                case .rejected(let error): throw AdminError(error)
                case .unknownAppleID(let appleID): throw AdminError.notFound("no Apple ID \(appleID)")
                }
            }
            return try Self.json(AuthorizationResults(results: results))
        }
    }
}

/// Refuses every admin call without the admin bearer token (401). Compares SHA-256 digests, which
/// swift-crypto compares in constant time.
package struct AdminTokenMiddleware<Context: RequestContext>: RouterMiddleware {
    let tokenDigest: SHA256.Digest

    package init(tokenDigest: SHA256.Digest) {
        self.tokenDigest = tokenDigest
    }

    package func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let bearer = request.headers.bearer, SHA256.hash(data: Array(bearer.token.utf8)) == tokenDigest else {
            return Response(
                status: .unauthorized,
                headers: [.wwwAuthenticate: "Bearer", .contentType: "application/json;charset=UTF-8"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"unauthorized"}"#)))
        }
        return try await next(request, context)
    }
}
