import AppleIDProtocol
import Foundation
import FuzzSupport
import SignInWithApple

/// The 2020 key set, which verifies the real notification of the fixtures (and its mutations' `kid`).
let keys = AppleKeySet(jwksJSON: FuzzInput.fixture("apple/jwks/2020_86D88Kf_eXaunmL.json"))
let verifier = NotificationVerifier(
    environment: .production, audiences: ["com.gameroasters.stack4"], keys: keys,
    clock: { Date(timeIntervalSince1970: 1_630_085_412) })

/// The notification parser on any bytes: `NotificationVerifier.verify(body:)` (the POSTed envelope,
/// then the token), and the claims as `verify(payload:)` reads them once the signature holds
/// (`NotificationClaims`, whose `events` is a JSON string decoded a second time).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNotification(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    if let claims = try? JSONDecoder().decode(NotificationClaims.self, from: Data(bytes)) {
        for event in claims.events { _ = event.eventDate }
    }
    FuzzInput.blocking {
        _ = try? await verifier.verify(body: bytes)
    }
    return 0
}
