import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import Synchronization
import Testing
import _CryptoExtras

/// Shared helpers of the verifier, vector, attack and key-set suites. Everything lives in this
/// namespace so that other test files of the module cannot collide with it.
enum VerifierSupport {
    // MARK: Test vectors (Tests/Fixtures)

    /// `Tests/Fixtures`, the test vectors kept in the repository (their sources and licences are in
    /// its README): this file is `Tests/SignInWithAppleTests/VerifierSupport.swift`.
    static let vectorsRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/SignInWithAppleTests
        .deletingLastPathComponent()  // Tests
        .appendingPathComponent("Fixtures")

    static func vectorBytes(_ path: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: vectorsRoot.appendingPathComponent(path)))
    }

    static func vectorText(_ path: String) throws -> String {
        String(decoding: try vectorBytes(path), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    static func vectorJSON(_ path: String) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(try vectorBytes(path)))
    }

    static func hex(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count / 2)
        var index = string.startIndex
        while index < string.endIndex {
            let next = string.index(index, offsetBy: 2)
            bytes.append(UInt8(string[index..<next], radix: 16)!)
            index = next
        }
        return bytes
    }

    static func json(_ object: Any) -> [UInt8] {
        [UInt8](try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes]))
    }

    static func b64(_ bytes: some Collection<UInt8>) -> String { Base64URL.encode(bytes) }
    static func b64(_ text: String) -> String { Base64URL.encode(Array(text.utf8)) }

    // MARK: Verdicts

    /// Whether a rejection happened after the signature was accepted: the kit verifies the
    /// signature first and only then decodes the payload, so a payload that is not an identity
    /// token's claims (Wycheproof's `foo`, RFC 7520's prose) surfaces as one of these two.
    static func signatureWasAccepted(_ error: any Error) -> Bool {
        guard let error = error as? IdentityTokenError, error.kind == .malformed, let reason = error.value else { return false }
        return reason.hasPrefix("the claims are not") || reason.hasPrefix("the payload is not")
    }

    /// Runs a verification and returns the error it threw, or nil when it succeeded.
    static func failure<T>(of body: () async throws -> T) async -> (any Error)? {
        do {
            _ = try await body()
            return nil
        } catch {
            return error
        }
    }

    // MARK: Keys and tokens

    /// RSA-2048 keys made once with openssl and kept in `Tests/Fixtures/rsa` (made at run time, each took a thread every test shares).
    static let key1 = fixtureKey(1)
    static let key2 = fixtureKey(2)
    static let attackerKey = fixtureKey(3)

    static func fixtureKey(_ number: Int) -> _RSA.Signing.PrivateKey {
        // Fixtures are part of the repository; a missing or broken one is a broken checkout, not a test result.
        try! _RSA.Signing.PrivateKey(pemRepresentation: try! vectorText("rsa/test-key-\(number).pem"))
    }

    /// The public JWK of an RSA key, as Apple publishes it.
    static func jwk(_ key: _RSA.Signing.PublicKey, kid: String) -> [String: Any] {
        let primitives = try! key.getKeyPrimitives()
        return [
            "kty": "RSA", "kid": kid, "use": "sig", "alg": "RS256",
            "n": b64([UInt8](primitives.modulus)), "e": b64([UInt8](primitives.publicExponent)),
        ]
    }

    static func jwks(_ keys: [(key: _RSA.Signing.PrivateKey, kid: String)]) -> [UInt8] {
        json(["keys": keys.map { jwk($0.key.publicKey, kid: $0.kid) }])
    }

    /// A compact JWS over exactly these header and payload segments, RS256-signed by `key`.
    static func sign(headerSegment: String, payloadSegment: String, with key: _RSA.Signing.PrivateKey) -> String {
        let input = headerSegment + "." + payloadSegment
        let signature = try! key.signature(for: SHA256.hash(data: Array(input.utf8)), padding: .insecurePKCS1v1_5)
        return input + "." + b64([UInt8](signature.rawRepresentation))
    }

    static func sign(header: [String: Any], claims: [String: Any], with key: _RSA.Signing.PrivateKey) -> String {
        sign(headerSegment: b64(json(header)), payloadSegment: b64(json(claims)), with: key)
    }

    /// Valid claims of an identity token issued at `now` for `audience`.
    static func claims(
        now: Int, audience: String = "com.example.app", subject: String = "001234.5a2c7e0d3f0a4b9c8e1f2a3b4c5d6e7f.0815"
    )
        -> [String: Any]
    {
        [
            "iss": "https://appleid.apple.com", "aud": audience, "exp": now + 600, "iat": now - 5, "sub": subject,
            "email": "abcdef1234@privaterelay.appleid.com", "email_verified": true, "is_private_email": true,
            "auth_time": now - 5, "nonce_supported": true,
        ]
    }

    // MARK: Time

    /// A clock the test moves by hand.
    final class ClockBox: Sendable {
        private let value: Mutex<Date>
        init(_ start: Date) { value = Mutex(start) }
        var now: Date { value.withLock { $0 } }
        func advance(by seconds: TimeInterval) { value.withLock { $0 += seconds } }
        var clock: @Sendable () -> Date { { self.now } }
    }

    // MARK: A key endpoint under the test's control

    /// Serves `/auth/keys` from memory: counts requests, switches the served JWKS, fails on demand
    /// and can hold every request at a gate until the test opens it.
    final class KeyEndpoint: HTTPTransport, Sendable {
        enum Mode: Sendable {
            case serve([UInt8])
            case throwError
            case status(Int)
        }

        struct Failure: Error, Sendable {}

        private struct State {
            var mode: Mode
            var requests: [HTTPTransportRequest] = []
            var gateClosed = false
            var held: [CheckedContinuation<Void, Never>] = []
            var arrivalWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
        }

        private let state: Mutex<State>

        init(_ mode: Mode) { state = Mutex(State(mode: mode)) }

        var requests: [HTTPTransportRequest] { state.withLock { $0.requests } }
        var fetchCount: Int { state.withLock { $0.requests.count } }

        func set(_ mode: Mode) { state.withLock { $0.mode = mode } }

        func closeGate() { state.withLock { $0.gateClosed = true } }

        func openGate() {
            let held = state.withLock { state in
                state.gateClosed = false
                defer { state.held = [] }
                return state.held
            }
            for continuation in held { continuation.resume() }
        }

        /// Returns once at least `count` requests have arrived (held at the gate or answered).
        func waitForRequests(_ count: Int) async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state in
                    if state.requests.count >= count { return true }
                    state.arrivalWaiters.append((count, continuation))
                    return false
                }
                if ready { continuation.resume() }
            }
        }

        func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
            let (arrived, mustWait): ([CheckedContinuation<Void, Never>], Bool) = state.withLock { state in
                state.requests.append(request)
                let total = state.requests.count
                let arrived = state.arrivalWaiters.filter { $0.count <= total }.map(\.continuation)
                state.arrivalWaiters.removeAll { $0.count <= total }
                return (arrived, state.gateClosed)
            }
            for continuation in arrived { continuation.resume() }
            if mustWait {
                await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                    let stillClosed = state.withLock { state in
                        guard state.gateClosed else { return false }
                        state.held.append(continuation)
                        return true
                    }
                    if !stillClosed { continuation.resume() }
                }
            }
            switch state.withLock({ $0.mode }) {
            case .serve(let body): return HTTPTransportResponse(status: 200, body: body)
            case .throwError: throw Failure()
            case .status(let status): return HTTPTransportResponse(status: status, body: Array("{\"error\":\"down\"}".utf8))
            }
        }
    }
}

// MARK: The manifests of the real Apple material

extension VerifierSupport {
    struct IDTokenManifest: Decodable {
        var tokens: [IDTokenEntry]
    }

    struct IDTokenEntry: Decodable, Sendable, CustomTestStringConvertible {
        struct Claims: Decodable, Sendable {
            var iss: String
            var aud: String
            var exp: Int
            var iat: Int
            var sub: String
            var nonce: String?
            var c_hash: String?
            var at_hash: String?
            var email: String?
            var email_verified: String?
            var is_private_email: String?
            var auth_time: Int?
            var nonce_supported: Bool?
            var real_user_status: Int?
        }

        struct HashBinding: Decodable, Sendable {
            var value_hashed: String
            var claim: String
        }

        var file: String
        var header: [String: String]
        var signature_verifies: Bool
        var verified_with_jwks: [String]
        var claims: Claims
        var verify_at_unix: Int
        var hash_bindings: [String: HashBinding]?

        var testDescription: String { file }
        var path: String { "apple/" + file }
        var jwksPath: String { "apple/" + verified_with_jwks[0] }
        var keyID: String { header["kid"]! }
    }

    struct NotificationManifest: Decodable {
        struct Entry: Decodable, Sendable {
            struct Claims: Decodable, Sendable {
                var iss: String
                var aud: String
                var exp: Int
                var iat: Int
                var jti: String
                var events: String
            }

            struct Event: Decodable, Sendable {
                var type: String
                var sub: String
                var event_time: Int64
                var email: String?
                var is_private_email: String?
            }

            var file: String
            var header: [String: String]
            var verified_with_jwks: [String]
            var claims: Claims
            var verify_at_unix: Int
            var events_decoded: Event

            var path: String { "apple/" + file }
            var jwksPath: String { "apple/" + verified_with_jwks[0] }
        }

        var notifications: [Entry]
    }

    static func idTokenManifest() throws -> IDTokenManifest {
        try JSONDecoder().decode(IDTokenManifest.self, from: Data(try vectorBytes("apple/id_tokens/manifest.json")))
    }

    static func notificationManifest() throws -> NotificationManifest {
        try JSONDecoder().decode(NotificationManifest.self, from: Data(try vectorBytes("apple/notifications/manifest.json")))
    }

    /// The manifest's tokens as test arguments (empty when the vectors are missing: the manifest
    /// test then fails, so an empty table cannot pass unnoticed).
    static let idTokenEntries: [IDTokenEntry] = (try? idTokenManifest().tokens) ?? []
}

/// One signature test of a Wycheproof file (RSA PKCS#1 and ECDSA files share the shape): message and
/// signature in hex, and whether the signature is valid, invalid or acceptable.
struct WycheproofSignatureCase: Decodable {
    var tcId: Int
    var comment: String
    var flags: [String]
    var msg: String
    var sig: String
    var result: String
}
