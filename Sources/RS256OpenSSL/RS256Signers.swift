import RS256Signing

/// The signers this build has. Only `siwa serve`'s composition root (and the benchmarks and tests that
/// compare signers) link this module; the engine signs with whatever signer it is handed, swift-crypto
/// unless told, so the kit's tests and the emulator need no system library.
public enum RS256Signers {
    /// The fastest signer for this build on this CPU (see ``fastest(cpuFlags:)``).
    public static var fastest: any RS256Signer { fastest(cpuFlags: CPUFlags.current) }

    /// OpenSSL's libcrypto when the `OpenSSLSigner` trait is on (the default on Linux) and the CPU has
    /// AVX-512 IFMA, which OpenSSL 3 uses for RSA and BoringSSL does not; swift-crypto otherwise.
    /// Without IFMA the two sign at the same raw rate, but inside the server (many threads signing
    /// with one key) libcrypto cost about 30% more per token (`Benchmarks/README.md`, 2026-11-25).
    public static func fastest(cpuFlags: Set<String>) -> any RS256Signer {
        cpuFlags.contains("avx512ifma") ? available[0] : SwiftCryptoRS256Signer()
    }

    /// Every signer in this build, fastest first: tests run the same vectors through each.
    public static var available: [any RS256Signer] {
        #if OpenSSLSigner && canImport(CLibCrypto)
        [OpenSSLRS256Signer(), SwiftCryptoRS256Signer()]
        #else
        [SwiftCryptoRS256Signer()]
        #endif
    }
}
