import AppleIDProtocol
import Foundation
import FuzzSupport

@testable import SignInWithApple

/// The kit's claims reader (`FlatJSON`, `IdentityTokenClaims(flatJSON:)`) on any payload bytes.
/// It is stricter than `JSONDecoder` on purpose, never more lenient: whatever it accepts,
/// `JSONDecoder` must accept too, with the same claims.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClaims(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let bytes = FuzzInput.bytes(start, count)
    _ = try? FlatJSON.parse(bytes)
    let decoded = try? JSONDecoder().decode(IdentityTokenClaims.self, from: Data(bytes))
    if let claims = try? IdentityTokenClaims(flatJSON: bytes) {
        guard let decoded else { FuzzInput.fail("FlatJSON accepted what JSONDecoder refuses") }
        guard decoded == claims else { FuzzInput.fail("FlatJSON and JSONDecoder read different claims") }
    }
    return 0
}
