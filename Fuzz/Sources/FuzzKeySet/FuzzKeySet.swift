import FuzzSupport

@testable import SignInWithApple

/// The kit's JWKS reader (`AppleKeySet.parse`) on any body the key endpoint might answer: it skips
/// what it cannot use and never crashes; every key it keeps is RSA of at least 2048 bits.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKeySet(_ start: UnsafeRawPointer?, _ count: Int) -> CInt {
    let keys = AppleKeySet.parse(FuzzInput.bytes(start, count))
    for (kid, key) in keys {
        guard !kid.isEmpty else { FuzzInput.fail("a key without a kid was kept") }
        guard key.keySizeInBits >= 2048 else { FuzzInput.fail("a \(key.keySizeInBits)-bit key was kept") }
    }
    return 0
}
