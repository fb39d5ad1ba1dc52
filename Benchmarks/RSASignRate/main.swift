// rsa-sign-rate: the raw RS256 signing floor of this machine.
//
// Generates one RSA-2048 key, then signs SHA-256 digests of a ~600 byte
// message (about the size of an id_token's signing input) with PKCS#1 v1.5
// on 2 threads for a fixed duration, and prints one line:
//
//     rsa2048_sign_per_sec_2_threads=<signatures per second, both threads>
//
// Usage: rsa-sign-rate [SECONDS]   (default 3)
//
// The token benchmark compares the server's /auth/token rate with this number:
// every successful token response costs at least one such signature.

import Crypto
import Dispatch
import Foundation
import Synchronization
import _CryptoExtras

enum RSASignRate {
    static let threadCount = 2
    static let defaultSeconds = 3.0

    static func run() {
        let seconds = parseSeconds(CommandLine.arguments)
        do {
            let rate = try measure(seconds: seconds)
            print("rsa2048_sign_per_sec_2_threads=" + String(format: "%.1f", rate))
        } catch {
            fail("rsa-sign-rate: \(error)")
        }
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
    static func sampleMessage() -> Data {
        let header = #"{"kid":"benchmark","alg":"RS256"}"#
        var payload = #"{"iss":"https://appleid.apple.com","aud":"com.example.service","#
        payload += #""sub":"000000.0123456789abcdef0123456789abcdef.0000","#
        payload += #""email":"benchmark.user@privaterelay.appleid.com","email_verified":true,"#
        payload += #""is_private_email":true,"auth_time":1700000000,"nonce_supported":true,"#
        payload += #""iat":1700000000,"exp":1700086400,"c_hash":"0123456789abcdefABCDEF","#
        payload += #""at_hash":"0123456789abcdefABCDEF","nonce":"n-0S6_WzA2Mj","#
        payload += #""real_user_status":2,"transfer_sub":"0123456789abcdef"}"#
        return Data((base64URL(header) + "." + base64URL(payload)).utf8)
    }

    static func base64URL(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// Signs SHA-256 digests of `message` until `deadline`; returns the number of signatures.
    static func signUntil(_ deadline: DispatchTime, key: _RSA.Signing.PrivateKey, message: Data) throws -> Int {
        var count = 0
        while DispatchTime.now() < deadline {
            let digest = SHA256.hash(data: message)
            _ = try key.signature(for: digest, padding: .insecurePKCS1v1_5)
            count += 1
        }
        return count
    }

    /// Signatures per second over `threadCount` threads signing for `seconds`.
    static func measure(seconds: Double) throws -> Double {
        let message = sampleMessage()
        let key = try _RSA.Signing.PrivateKey(keySize: .bits2048)

        // Warm up once and check that the signature really verifies.
        let digest = SHA256.hash(data: message)
        let check = try key.signature(for: digest, padding: .insecurePKCS1v1_5)
        guard key.publicKey.isValidSignature(check, for: digest, padding: .insecurePKCS1v1_5) else {
            fail("rsa-sign-rate: signature does not verify")
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

        guard failures.load(ordering: .relaxed) == 0 else { fail("rsa-sign-rate: signing failed") }
        return Double(signatures.load(ordering: .relaxed)) / elapsed
    }
}

RSASignRate.run()
