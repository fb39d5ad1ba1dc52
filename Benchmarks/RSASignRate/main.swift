// rsa-sign-rate: the raw RS256 signing floor of this machine, for each signer of the build.
//
// Generates one RSA-2048 key, hands it once to each signer (RS256Signing: OpenSSL's libcrypto when
// the build has it, swift-crypto always), then signs a ~600 byte message (about the size of an
// id_token's signing input) with RSASSA-PKCS1-v1_5 SHA-256 on 2 threads for a fixed duration per
// signer, and prints:
//
//     rsa2048_sign_per_sec_2_threads=<swift-crypto's signatures per second, both threads>
//     rsa2048_sign_per_sec_2_threads.<signer>=<the same for each signer>
//     rsa2048_sign_cpu_us_1_thread.server=<CPU µs per signature of the server's signer, one thread>
//
// The last line is the signer `siwa serve` uses (`RS256Signers.fastest`) on one thread, timed by the
// thread's own CPU clock, so another process sharing the cores does not inflate it: the token benchmark
// subtracts it from the server's CPU per request to get the cost beside the signature (issue 38).
//
// Usage: rsa-sign-rate [SECONDS]   (default 3, per signer)
//
// The token benchmark compares the server's /auth/token rate with the first line: the floor the
// goals of issue 24 are stated against. `Benchmarks/rsa-sign-rate.sh` adds `openssl speed`.

import Crypto
import Dispatch
import Foundation
import RS256OpenSSL
import RS256Signing
import Synchronization
import _CryptoExtras

enum RSASignRate {
    static let threadCount = 2
    static let defaultSeconds = 3.0

    static func run() {
        let seconds = parseSeconds(CommandLine.arguments)
        do {
            let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)
            for signer in RS256Signers.available.reversed() {
                let rate = try measure(signer, key: key, seconds: seconds)
                let formatted = String(format: "%.1f", rate)
                if signer is SwiftCryptoRS256Signer { print("rsa2048_sign_per_sec_2_threads=" + formatted) }
                print("rsa2048_sign_per_sec_2_threads.\(label(signer))=\(formatted)  # \(signer.name)")
            }
            let server = RS256Signers.fastest
            let cost = try cpuMicrosecondsPerSignature(server, key: key, seconds: seconds)
            print("rsa2048_sign_cpu_us_1_thread.server=" + String(format: "%.1f", cost) + "  # \(server.name)")
        } catch {
            fail("rsa-sign-rate: \(error)")
        }
    }

    /// A short label for the output line: `swift_crypto` or `openssl`.
    static func label(_ signer: any RS256Signer) -> String {
        signer is SwiftCryptoRS256Signer ? "swift_crypto" : "openssl"
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data((message + "\n").utf8))
        exit(1)
    }

    static func parseSeconds(_ arguments: [String]) -> Double {
        guard arguments.count > 1 else { return defaultSeconds }
        guard let value = Double(arguments[1]), value > 0, value.isFinite else {
            fail("usage: rsa-sign-rate [SECONDS > 0]")
        }
        return value
    }

    /// A JWT-like signing input (base64url header "." base64url payload), ~600 bytes.
    static func sampleMessage() -> [UInt8] {
        let header = #"{"kid":"benchmark","alg":"RS256"}"#
        var payload = #"{"iss":"https://appleid.apple.com","aud":"com.example.service","#
        payload += #""sub":"000000.0123456789abcdef0123456789abcdef.0000","#
        payload += #""email":"benchmark.user@privaterelay.appleid.com","email_verified":true,"#
        payload += #""is_private_email":true,"auth_time":1700000000,"nonce_supported":true,"#
        payload += #""iat":1700000000,"exp":1700086400,"c_hash":"0123456789abcdefABCDEF","#
        payload += #""at_hash":"0123456789abcdefABCDEF","nonce":"n-0S6_WzA2Mj","#
        payload += #""real_user_status":2,"transfer_sub":"0123456789abcdef"}"#
        return Array((base64URL(header) + "." + base64URL(payload)).utf8)
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Signs `message` until `deadline`; returns the number of signatures.
    static func signUntil(_ deadline: DispatchTime, key: any RS256SigningKey, message: [UInt8]) throws -> Int {
        var count = 0
        while DispatchTime.now() < deadline {
            _ = try key.signature(for: message)
            count += 1
        }
        return count
    }

    /// `signer`'s signatures per second over `threadCount` threads signing for `seconds`.
    static func measure(_ signer: any RS256Signer, key reference: _RSA.Signing.PrivateKey, seconds: Double) throws -> Double {
        let message = sampleMessage()
        let key = try signer.loadKey(derRepresentation: Array(reference.derRepresentation))

        // Warm up once and check that the signature really verifies.
        let check = _RSA.Signing.RSASignature(rawRepresentation: try key.signature(for: message))
        guard reference.publicKey.isValidSignature(check, for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5) else {
            fail("rsa-sign-rate: \(signer.name)'s signature does not verify")
        }

        let signatures = Atomic<Int>(0)
        let failures = Atomic<Int>(0)
        let start = DispatchTime.now()
        let deadline = start + seconds
        DispatchQueue.concurrentPerform(iterations: threadCount) { _ in
            do {
                let count = try signUntil(deadline, key: key, message: message)
                signatures.add(count, ordering: .relaxed)
            } catch {
                failures.add(1, ordering: .relaxed)
            }
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9

        guard failures.load(ordering: .relaxed) == 0 else { fail("rsa-sign-rate: \(signer.name) failed to sign") }
        return Double(signatures.load(ordering: .relaxed)) / elapsed
    }
}

extension RSASignRate {
    /// `signer`'s CPU time per signature on this one thread, signing for `seconds` of wall time.
    static func cpuMicrosecondsPerSignature(_ signer: any RS256Signer, key reference: _RSA.Signing.PrivateKey, seconds: Double) throws -> Double {
        let message = sampleMessage()
        let key = try signer.loadKey(derRepresentation: Array(reference.derRepresentation))
        _ = try key.signature(for: message)
        let start = threadCPUMicroseconds()
        let count = try signUntil(DispatchTime.now() + seconds, key: key, message: message)
        return (threadCPUMicroseconds() - start) / Double(max(count, 1))
    }

    /// CPU time this thread has used, in microseconds (`CLOCK_THREAD_CPUTIME_ID`).
    static func threadCPUMicroseconds() -> Double {
        var now = timespec()
        guard clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now) == 0 else { fail("rsa-sign-rate: no thread CPU clock") }
        return Double(now.tv_sec) * 1e6 + Double(now.tv_nsec) / 1e3
    }
}

RSASignRate.run()
