import AppleIDProtocol
import AppleIDProvider
import Foundation
import Hummingbird

/// `GET /.well-known/openid-configuration` and `GET /auth/keys`, served from precomputed bytes.
struct DiscoveryEndpoints {
    let discoveryJSON: ByteBuffer
    let keyRing: SigningKeyRing

    init(issuer: String, baseURL: String, keyRing: SigningKeyRing) {
        self.discoveryJSON = ByteBuffer(bytes: OrderedJSON.encode(DiscoveryDocument(issuer: issuer, baseURL: baseURL)))
        self.keyRing = keyRing
    }

    func register(on router: Router<AppleIDRequestContext>) {
        router.get("/.well-known/openid-configuration") { _, _ in
            Response(status: .ok, headers: [.contentType: "application/json;charset=UTF-8"], body: .init(byteBuffer: discoveryJSON))
        }
        router.get("/auth/keys") { _, _ in
            Response(
                status: .ok, headers: [.contentType: "application/json;charset=UTF-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: keyRing.publishedKeySetJSON)))
        }
    }
}
