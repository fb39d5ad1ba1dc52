// siwa-verify-benchmark: how fast the kit verifies an Apple identity token, against jwt-kit and
// against the raw RSA verification that any verifier must pay.
//
// Generates one RSA-2048 key and one Apple-shaped id_token signed with it (header
// {"kid":"BENCHKEY01","alg":"RS256"}, Apple's claims, issuer https://appleid.apple.com, exp a day
// ahead of the real clock so that jwt-kit accepts it), then measures, single-threaded, each for a
// fixed duration after a warm-up:
//
//   kit     IdentityTokenVerifier.verify with a fixed key set (AppleKeySet(jwksJSON:)) and a fixed clock
//   jwtkit  jwt-kit's JWTKeyCollection.verify(_:as: AppleIdentityToken.self, expectedAudience:)
//   raw     swift-crypto RSA-2048 PKCS#1 v1.5 verification of SHA-256(signing input)
//
// and prints ops/s for each, the ratios kit/jwtkit and kit/raw, and whether the goals are met
// (kit ≥ 1.25 × jwtkit, kit ≥ 0.7 × raw). It measures and does not judge: the exit status is 0
// whether or not the goals are met, 1 only when it cannot run.
//
// Usage: siwa-verify-benchmark [SECONDS]   (default 3 per measurement)
// VERIFY_BENCHMARK_ONLY=kit|jwtkit|raw runs only that measurement (for profiling with perf); =claims
// times only the kit's JSONDecoder decoding of the claims.

import AppleIDProtocol
import Crypto
import Foundation
import JWTKit
import SignInWithApple
import _CryptoExtras

enum VerifyBenchmark {
    static let keyID = "BENCHKEY01"
    static let audience = "com.example.app.web"
    static let kitGoal = 1.25
    static let rawGoal = 0.7

    static func run() async {
        let seconds = parseSeconds(CommandLine.arguments)
        do {
            try await measureAll(seconds: seconds)
        } catch {
            fail("siwa-verify-benchmark: \(error)")
        }
    }

    static func measureAll(seconds: Double) async throws {
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let now = Int(Date().timeIntervalSince1970)
        let token = try makeToken(key: key, issuedAt: now)
        let jwks = try makeJWKS(key.publicKey)

        let kit = IdentityTokenVerifier(
            environment: .production, audiences: [audience], keys: AppleKeySet(jwksJSON: jwks),
            clock: { Date(timeIntervalSince1970: TimeInterval(now + 60)) })
        let jwtKit = JWTKeyCollection()
        try await jwtKit.add(jwks: JSONDecoder().decode(JWKS.self, from: Data(jwks)))
        let jws = try CompactJWS(token)
        let signingInput = Array(jws.signingInput)
        let signature = try _RSA.Signing.RSASignature(rawRepresentation: jws.signatureBytes())
        let publicKey = key.publicKey

        // Each path must accept the token before it is timed.
        guard try await kit.verify(token).subject == subject,
            try await jwtKit.verify(token, as: AppleIdentityToken.self, expectedAudience: audience).subject.value == subject,
            publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
        else { fail("siwa-verify-benchmark: a verifier refused the benchmark token") }

        if let only = ProcessInfo.processInfo.environment["VERIFY_BENCHMARK_ONLY"] {
            switch only {
            case "kit": _ = try await measure("kit", seconds: seconds) { _ = try await kit.verify(token) }
            case "claims":  // the kit's claims decoding alone, as IdentityTokenVerifier.verify does it
                let payload = Data(try jws.payloadBytes())
                _ = try await measure("claims_decode", seconds: seconds) { _ = try JSONDecoder().decode(IdentityTokenClaims.self, from: payload) }
            case "jwtkit":
                _ = try await measure("jwtkit", seconds: seconds) {
                    _ = try await jwtKit.verify(token, as: AppleIdentityToken.self, expectedAudience: audience)
                }
            default:
                _ = try await measure("raw", seconds: seconds) {
                    _ = publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5)
                }
            }
            return
        }
        print("token: \(token.utf8.count) bytes, RSA-2048, \(String(format: "%.1f", seconds)) s per measurement, single-threaded")
        let kitRate = try await measure("kit", seconds: seconds) { _ = try await kit.verify(token) }
        let jwtKitRate = try await measure("jwtkit", seconds: seconds) {
            _ = try await jwtKit.verify(token, as: AppleIdentityToken.self, expectedAudience: audience)
        }
        let rawRate = try await measure("raw", seconds: seconds) {
            guard publicKey.isValidSignature(signature, for: SHA256.hash(data: signingInput), padding: .insecurePKCS1v1_5) else {
                fail("siwa-verify-benchmark: the raw verification failed")
            }
        }
        let kitOverJWTKit = kitRate / jwtKitRate
        let kitOverRaw = kitRate / rawRate
        print("kit/jwtkit=\(fixed(kitOverJWTKit)) (goal ≥ \(fixed(kitGoal)): \(kitOverJWTKit >= kitGoal ? "met" : "NOT met"))")
        print("kit/raw=\(fixed(kitOverRaw)) (goal ≥ \(fixed(rawGoal)): \(kitOverRaw >= rawGoal ? "met" : "NOT met"))")
        print(kitOverJWTKit >= kitGoal && kitOverRaw >= rawGoal ? "goals: met" : "goals: NOT met")
    }

    /// Runs `body` for `seconds / 6` to warm up, then counts calls for `seconds`; prints and returns ops/s.
    static func measure(_ name: String, seconds: Double, _ body: () async throws -> Void) async throws -> Double {
        let clock = ContinuousClock()
        let warmUpEnd = clock.now + .milliseconds(Int(seconds * 1000 / 6))
        while clock.now < warmUpEnd { try await body() }
        let start = clock.now
        let end = start + .milliseconds(Int(seconds * 1000))
        var count = 0
        while clock.now < end {
            try await body()
            count += 1
        }
        let elapsed = start.duration(to: clock.now)
        let rate = Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        print("\(name)_ops_per_sec=\(fixed(rate, 1)) (\(count) in \(fixed(Double(count) / rate)) s, \(fixed(1e6 / rate)) µs each)")
        return rate
    }

    static func fixed(_ value: Double, _ digits: Int = 2) -> String { String(format: "%.\(digits)f", value) }

    static let subject = "001234.0123456789abcdef0123456789abcdef.1234"

    /// An id_token shaped like Apple's (claims in Apple's order, string booleans as Apple sent until 2024).
    static func makeToken(key: _RSA.Signing.PrivateKey, issuedAt: Int) throws -> String {
        let header = #"{"kid":"\#(keyID)","alg":"RS256"}"#
        let claims =
            #"{"iss":"https://appleid.apple.com","aud":"\#(audience)","exp":\#(issuedAt + 86_400),"iat":\#(issuedAt),"#
            + #""sub":"\#(subject)","nonce":"Q2hhbGxlbmdlLW5vbmNlLTEyMzQ1Njc4OTA","#
            + #""c_hash":"ANG_OgqO21-TO_GW2-BUmg","at_hash":"M5UCunFu1J67auQ6-q-kOw","#
            + #""email":"mn5bmf2yrs@privaterelay.appleid.com","email_verified":true,"is_private_email":true,"#
            + #""auth_time":\#(issuedAt),"nonce_supported":true,"real_user_status":2}"#
        let signingInput = Base64URL.encode(Array(header.utf8)) + "." + Base64URL.encode(Array(claims.utf8))
        let signature = try key.signature(for: SHA256.hash(data: Array(signingInput.utf8)), padding: .insecurePKCS1v1_5)
        return signingInput + "." + Base64URL.encode(Array(signature.rawRepresentation))
    }

    static func makeJWKS(_ key: _RSA.Signing.PublicKey) throws -> [UInt8] {
        let primitives = try key.getKeyPrimitives()
        let jwk = [
            "kty": "RSA", "kid": keyID, "use": "sig", "alg": "RS256",
            "n": Base64URL.encode(Array(primitives.modulus)), "e": Base64URL.encode(Array(primitives.publicExponent)),
        ]
        return Array(try JSONSerialization.data(withJSONObject: ["keys": [jwk]]))
    }

    static func parseSeconds(_ arguments: [String]) -> Double {
        guard arguments.count > 1 else { return 3 }
        guard let value = Double(arguments[1]), value > 0, value.isFinite else { fail("usage: siwa-verify-benchmark [SECONDS > 0]") }
        return value
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }
}

await VerifyBenchmark.run()
