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

/// The kit's token splitter and header reader (`SignedTokenVerifier`, `HeaderCache.parse`) on any
/// string, and the whole public `IdentityTokenVerifier.verify` path behind them.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzToken(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    _ = try? HeaderCache.parse(bytes)
    let token = String(decoding: bytes, as: UTF8.self)
    FuzzInput.blocking {
        _ = try? await SignedTokenVerifier(keys: newerKeys).verify(token)
        _ = try? await verifier.verify(token)
    }
    return 0
}
