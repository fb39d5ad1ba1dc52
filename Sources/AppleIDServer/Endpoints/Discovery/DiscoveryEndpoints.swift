import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// `GET /.well-known/openid-configuration` and `GET /auth/keys`, served from precomputed bytes.
///
/// With `?client_id=` the discovery document is that client's: as its `apple_as_of` day shows it
/// (``ProviderConfiguration/discoveryIssuer(forClientAsOf:)``). Apple ignores the query, so an app pointed
/// at that URL works unchanged against Apple, and `siwa check` can show one app the issuer flip of
/// 2025-06-11 without changing the document every other client reads. An unknown client gets the
/// server-wide document, as from Apple.
struct DiscoveryEndpoints {
    let discoveryJSON: ByteBuffer
    let baseURL: String
    let provider: AppleIDProvider

    init(provider: AppleIDProvider, baseURL: String) {
        self.discoveryJSON = ByteBuffer(
            bytes: OrderedJSON.encode(DiscoveryDocument(issuer: provider.configuration.discoveryIssuer, baseURL: baseURL)))
        self.baseURL = baseURL
        self.provider = provider
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/.well-known/openid-configuration") { request, _ in
            Self.json(try await document(for: request.uri.queryParameters.get("client_id")))
        }
        router.get("/auth/keys") { _, _ in
            Self.json(ByteBuffer(bytes: provider.keyRing.publishedKeySetJSON))
        }
    }

    /// The server-wide document, or the client's when it names its own day.
    func document(for clientID: String?) async throws -> ByteBuffer {
        guard let clientID, let client = try await provider.registeredClient(ClientID(rawValue: clientID)), let day = client.quirks.appleAsOf else {
            return discoveryJSON
        }
        let issuer = provider.configuration.discoveryIssuer(forClientAsOf: day)
        return ByteBuffer(bytes: OrderedJSON.encode(DiscoveryDocument(issuer: issuer, baseURL: baseURL)))
    }

    static func json(_ body: ByteBuffer) -> Response {
        Response(status: .ok, headers: [.contentType: "application/json;charset=UTF-8"], body: .init(byteBuffer: body))
    }
}
