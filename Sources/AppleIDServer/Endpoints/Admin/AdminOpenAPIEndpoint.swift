import Foundation
import Hummingbird

/// `GET /admin/openapi.yaml`: the admin API's OpenAPI 3.1 document, behind the admin token like the
/// rest of `/admin`.
///
/// The document is written by hand and kept true by a test (`AdminOpenAPITests`): every registered
/// `/admin` route is in it and nothing else, each request body's properties are the keys its Swift
/// type reads, and a scripted session's answers fit their schemas. We chose that over swift-openapi-generator because the generator would mean a
/// build plugin on every build and a rewrite of every admin handler onto generated types, while the
/// handlers already decode into small types that call one engine operation each.
struct AdminOpenAPIEndpoint {
    /// The document's bytes, read once from the module's bundle.
    static let document: ByteBuffer? = Bundle.module.url(forResource: "openapi", withExtension: "yaml", subdirectory: "OpenAPI")
        .flatMap { try? Data(contentsOf: $0) }
        .map { ByteBuffer(bytes: $0) }

    func register(on admin: RouterGroup<AppleIDRequestContext>) {
        admin.get("/openapi.yaml") { _, _ in
            // A missing resource is a broken build, not the caller's fault.
            guard let document = Self.document else { throw HTTPError(.internalServerError) }
            return Response(
                status: .ok, headers: [.contentType: "application/yaml;charset=UTF-8", .cacheControl: "no-store"],
                body: .init(byteBuffer: document))
        }
    }
}
