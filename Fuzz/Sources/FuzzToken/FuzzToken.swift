import AppleIDProtocol
import Foundation
import FuzzSupport

@testable import SignInWithApple

/// Apple's 2020 and 2023 signing keys: a mutated real token keeps a `kid` they know, so the
/// signature check runs too.
let keys = AppleKeySet(jwksJSON: FuzzInput.fixture("apple/jwks/2020_86D88Kf_eXaunmL.json"))
let newerKeys = AppleKeySet(jwksJSON: FuzzInput.fixture("apple/jwks/2023_W6WcOKB_fh6Bs8C_YuyXoY.json"))
let verifier = IdentityTokenVerifier(
    environment: .production, audiences: ["com.gameroasters.stack4", "com.namecare.authcare"], keys: keys,
    clock: { Date(timeIntervalSince1970: 1_630_741_430) })

/// The compact-JWS reader (`CompactJWS`: split, header) and the kit's header rules
/// (`HeaderCache.keyID(of:)`) on any string, and the whole public `IdentityTokenVerifier.verify`
/// path behind them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToken(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let token = String(decoding: FuzzInput.bytes(start, count), as: UTF8.self)
    if let jws = try? CompactJWS(token) {
        _ = try? jws.payloadBytes()
        _ = try? HeaderCache.keyID(of: jws)
    }
    FuzzInput.blocking {
        _ = try? await SignedTokenVerifier(keys: newerKeys).verify(token)
        _ = try? await verifier.verify(token)
    }
    return 0
}
