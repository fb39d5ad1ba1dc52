import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import Testing
import _CryptoExtras

/// Forged and malformed identity tokens built by hand, each against a verifier that trusts exactly
/// one freshly generated key (`k1`) for a fixed clock. Every row names what the kit must answer.
@Suite("Forged and malformed identity tokens are refused")
struct AttackTokenTests {
    static let now = 1_700_000_000
    static let audience = "com.example.app"
    static let issuer = "https://appleid.apple.com"

    enum Verdict: Sendable {
        case accepted
        case rejected(IdentityTokenError)
        /// Any of these errors (where the rule that fires first is not the point of the row).
        case rejectedAnyOf([IdentityTokenError])
        /// Authentic but non-canonical: accepting is allowed (Wycheproof JWS 367/370 are
        /// "acceptable"), and if refused then for this reason only.
        case acceptedOr(IdentityTokenError)
    }

    struct Row: Sendable, CustomTestStringConvertible {
        let name: String
        let verdict: Verdict
        let nonce: Nonce?
        let token: @Sendable () -> String

        init(_ name: String, _ verdict: Verdict, nonce: Nonce? = nil, token: @escaping @Sendable () -> String) {
            self.name = name
            self.verdict = verdict
            self.nonce = nonce
            self.token = token
        }

        var testDescription: String { name }
    }

    // MARK: Building blocks

    static var key: _RSA.Signing.PrivateKey { VerifierSupport.key1 }
    static var header: [String: Any] { ["alg": "RS256", "kid": "k1"] }
    static func claims(_ changes: [String: Any?] = [:]) -> [String: Any] {
        var claims = VerifierSupport.claims(now: now, audience: audience)
        for (name, value) in changes { claims[name] = value }
        return claims
    }

    static func token(header: [String: Any] = header, claims: [String: Any] = claims(), key: _RSA.Signing.PrivateKey = key) -> String {
        VerifierSupport.sign(header: header, claims: claims, with: key)
    }

    static func segments(_ token: String) -> [String] { token.split(separator: ".", omittingEmptySubsequences: false).map(String.init) }

    static func headerSegment(_ header: [String: Any]) -> String { VerifierSupport.b64(VerifierSupport.json(header)) }
    static var payloadSegment: String { VerifierSupport.b64(VerifierSupport.json(claims())) }
    static var realSignature: String { segments(token())[2] }

    /// A token whose header is `header` and whose signature is `signature` over the rest.
    static func unsigned(_ header: [String: Any], signature: String) -> String {
        headerSegment(header) + "." + payloadSegment + "." + signature
    }

    /// HS256 keyed with `secret`: the classic RS256 → HS256 key confusion.
    static func hmacToken(secret: [UInt8]) -> String {
        let input = headerSegment(["alg": "HS256", "kid": "k1"]) + "." + payloadSegment
        let mac = HMAC<SHA256>.authenticationCode(for: Array(input.utf8), using: SymmetricKey(data: secret))
        return input + "." + VerifierSupport.b64(Array(mac))
    }

    static func withNonce(_ nonce: String?, supported: Bool?) -> String {
        token(claims: claims(["nonce": nonce, "nonce_supported": supported]))
    }

    static func sha256Hex(_ text: String) -> String {
        SHA256.hash(data: Array(text.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    static var attackerJWK: [String: Any] { VerifierSupport.jwk(VerifierSupport.attackerKey.publicKey, kid: "k1") }

    // MARK: The table

    static let rows: [Row] = [
        Row("control: a well-formed token signed by k1", .accepted) { token() },

        // alg
        Row("alg none, empty signature", .rejected(.unsupportedAlgorithm("none"))) {
            unsigned(["alg": "none", "kid": "k1"], signature: "")
        },
        Row("alg none, the real signature", .rejected(.unsupportedAlgorithm("none"))) {
            unsigned(["alg": "none", "kid": "k1"], signature: realSignature)
        },
        Row("alg none without kid, empty signature", .rejected(.unsupportedAlgorithm("none"))) {
            unsigned(["alg": "none"], signature: "")
        },
        Row("alg None", .rejected(.unsupportedAlgorithm("None"))) { unsigned(["alg": "None", "kid": "k1"], signature: "") },
        Row("alg NONE", .rejected(.unsupportedAlgorithm("NONE"))) { unsigned(["alg": "NONE", "kid": "k1"], signature: "") },
        Row("alg rs256 (signed by k1)", .rejected(.unsupportedAlgorithm("rs256"))) { token(header: ["alg": "rs256", "kid": "k1"]) },
        Row("alg Rs256 (signed by k1)", .rejected(.unsupportedAlgorithm("Rs256"))) { token(header: ["alg": "Rs256", "kid": "k1"]) },
        Row("alg \"RS256 \" (signed by k1)", .rejected(.unsupportedAlgorithm("RS256 "))) { token(header: ["alg": "RS256 ", "kid": "k1"]) },
        Row("HS256 keyed with the public key's PEM", .rejected(.unsupportedAlgorithm("HS256"))) {
            hmacToken(secret: Array(key.publicKey.pemRepresentation.utf8))
        },
        Row("HS256 keyed with the public key's PEM and a newline", .rejected(.unsupportedAlgorithm("HS256"))) {
            hmacToken(secret: Array((key.publicKey.pemRepresentation + "\n").utf8))
        },
        Row("HS256 keyed with the public key's DER (SPKI)", .rejected(.unsupportedAlgorithm("HS256"))) {
            hmacToken(secret: [UInt8](key.publicKey.derRepresentation))
        },
        Row("HS256 keyed with the public key's DER (PKCS#1)", .rejected(.unsupportedAlgorithm("HS256"))) {
            hmacToken(secret: [UInt8](key.publicKey.pkcs1DERRepresentation))
        },
        Row("alg ES256 (RS256 signature)", .rejected(.unsupportedAlgorithm("ES256"))) { token(header: ["alg": "ES256", "kid": "k1"]) },
        Row("alg PS256 (RS256 signature)", .rejected(.unsupportedAlgorithm("PS256"))) { token(header: ["alg": "PS256", "kid": "k1"]) },
        Row("alg RS384 (RS256 signature)", .rejected(.unsupportedAlgorithm("RS384"))) { token(header: ["alg": "RS384", "kid": "k1"]) },
        Row("alg RS512 (RS256 signature)", .rejected(.unsupportedAlgorithm("RS512"))) { token(header: ["alg": "RS512", "kid": "k1"]) },
        Row("missing alg", .rejected(.unsupportedAlgorithm("(missing)"))) { token(header: ["kid": "k1"]) },
        Row("alg not a string", .rejected(.unsupportedAlgorithm("(missing)"))) { token(header: ["alg": ["RS256"], "kid": "k1"]) },

        // kid
        Row("missing kid", .rejected(.missingKeyID)) { token(header: ["alg": "RS256"]) },
        Row("empty kid", .rejected(.missingKeyID)) { token(header: ["alg": "RS256", "kid": ""]) },
        Row("kid not a string", .rejected(.missingKeyID)) { token(header: ["alg": "RS256", "kid": 1]) },
        Row("unknown kid", .rejected(.unknownKeyID("k9"))) { token(header: ["alg": "RS256", "kid": "k9"]) },
        Row("kid ../../etc/passwd", .rejected(.unknownKeyID("../../etc/passwd"))) {
            token(header: ["alg": "RS256", "kid": "../../etc/passwd"])
        },
        Row("kid k1' OR '1'='1", .rejected(.unknownKeyID("k1' OR '1'='1"))) { token(header: ["alg": "RS256", "kid": "k1' OR '1'='1"]) },
        Row("kid k1 + NUL", .rejected(.unknownKeyID("k1\u{0}"))) { token(header: ["alg": "RS256", "kid": "k1\u{0}"]) },
        Row("kid K1 (case)", .rejected(.unknownKeyID("K1"))) { token(header: ["alg": "RS256", "kid": "K1"]) },
        Row("kid k1 + space", .rejected(.unknownKeyID("k1 "))) { token(header: ["alg": "RS256", "kid": "k1 "]) },

        // key-bearing and critical headers
        Row("jku pointing at an attacker's key set", .rejected(.forbiddenHeader("jku"))) {
            token(header: ["alg": "RS256", "kid": "k1", "jku": "https://evil.example/keys"], key: VerifierSupport.attackerKey)
        },
        Row("x5u pointing at an attacker's certificate", .rejected(.forbiddenHeader("x5u"))) {
            token(header: ["alg": "RS256", "kid": "k1", "x5u": "https://evil.example/cert.pem"], key: VerifierSupport.attackerKey)
        },
        Row("jwk embedding the attacker key that signed", .rejected(.forbiddenHeader("jwk"))) {
            token(header: ["alg": "RS256", "kid": "k1", "jwk": attackerJWK], key: VerifierSupport.attackerKey)
        },
        Row("jwk embedding the attacker key, without kid", .rejected(.forbiddenHeader("jwk"))) {
            token(header: ["alg": "RS256", "jwk": attackerJWK], key: VerifierSupport.attackerKey)
        },
        Row("jwk embedding k1's own public key (signed by k1)", .rejected(.forbiddenHeader("jwk"))) {
            token(header: ["alg": "RS256", "kid": "k1", "jwk": VerifierSupport.jwk(key.publicKey, kid: "k1")])
        },
        Row("x5c with a certificate chain", .rejected(.forbiddenHeader("x5c"))) {
            token(header: ["alg": "RS256", "kid": "k1", "x5c": ["MIIBIjANBgkqhkiG9w0BAQEFAAOC"]], key: VerifierSupport.attackerKey)
        },
        Row("crit naming an extension (signed by k1)", .rejected(.forbiddenHeader("crit"))) {
            token(header: ["alg": "RS256", "kid": "k1", "crit": ["exp"], "exp": now + 600])
        },
        Row("jwk: null (signed by k1)", .rejected(.forbiddenHeader("jwk"))) {
            token(header: ["alg": "RS256", "kid": "k1", "jwk": NSNull()])
        },
        Row("the attacker's key, kid k1, no key header", .rejected(.invalidSignature)) { token(key: VerifierSupport.attackerKey) },

        // structure
        Row("two segments", .rejected(.malformed("a JWS has three segments, found 2"))) {
            let parts = segments(token())
            return parts[0] + "." + parts[1]
        },
        Row("four segments", .rejected(.malformed("a JWS has three segments, found 4"))) { token() + "." + realSignature },
        Row("four segments, the last empty", .rejected(.malformed("a JWS has three segments, found 4"))) { token() + "." },
        Row("one segment", .rejected(.malformed("a JWS has three segments, found 1"))) { payloadSegment },
        Row("empty string", .rejected(.malformed("a JWS has three segments, found 1"))) { "" },
        Row("empty signature", .rejected(.invalidSignature)) {
            let parts = segments(token())
            return parts[0] + "." + parts[1] + "."
        },
        Row("signature one byte short", .rejected(.invalidSignature)) {
            let parts = segments(token())
            let signature = try! Base64URL.decode(parts[2])
            return parts[0] + "." + parts[1] + "." + VerifierSupport.b64(signature.dropLast())
        },
        Row("signature with a zero byte prepended", .rejected(.invalidSignature)) {
            let parts = segments(token())
            return parts[0] + "." + parts[1] + "." + VerifierSupport.b64([0] + (try! Base64URL.decode(parts[2])))
        },
        Row("signature with a zero byte appended", .rejected(.invalidSignature)) {
            let parts = segments(token())
            return parts[0] + "." + parts[1] + "." + VerifierSupport.b64((try! Base64URL.decode(parts[2])) + [0])
        },
        Row("signature all zero", .rejected(.invalidSignature)) {
            let parts = segments(token())
            return parts[0] + "." + parts[1] + "." + VerifierSupport.b64([UInt8](repeating: 0, count: 256))
        },
        Row("signature of another token", .rejected(.invalidSignature)) {
            let other = segments(token(claims: claims(["sub": "001234.other.0001"])))
            let parts = segments(token())
            return parts[0] + "." + parts[1] + "." + other[2]
        },
        Row("payload swapped with another token's", .rejected(.invalidSignature)) {
            let other = segments(token(claims: claims(["sub": "001234.other.0001"])))
            let parts = segments(token())
            return parts[0] + "." + other[1] + "." + parts[2]
        },
        Row("header swapped (kid k1 → k2 header on k1's signature)", .rejectedAnyOf([.unknownKeyID("k2"), .invalidSignature])) {
            let parts = segments(token())
            return headerSegment(["alg": "RS256", "kid": "k2"]) + "." + parts[1] + "." + parts[2]
        },
        Row("signature in standard base64 with padding", .rejected(.invalidSignature)) {
            let parts = segments(token())
            return parts[0] + "." + parts[1] + "." + Data(try! Base64URL.decode(parts[2])).base64EncodedString()
        },
        Row("header with base64 '=' padding (signed)", .acceptedOr(.malformed("the header is not base64url JSON"))) {
            VerifierSupport.sign(headerSegment: "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0=", payloadSegment: payloadSegment, with: key)
        },
        Row("header in standard base64 with '/' (signed)", .rejected(.malformed("the header is not base64url JSON"))) {
            // {"alg":"RS256","kid":"k1","x":"???"} encodes with a '/' in standard base64.
            let header = Data(#"{"alg":"RS256","kid":"k1","x":"???"}"#.utf8).base64EncodedString()
            precondition(header.contains("/"))
            return VerifierSupport.sign(headerSegment: header, payloadSegment: payloadSegment, with: key)
        },
        Row("header with a character outside base64url (signed)", .rejected(.malformed("the header is not base64url JSON"))) {
            VerifierSupport.sign(headerSegment: "eyJhbGciOiJSUzI1NiIsImtpZCI6ImsxIn0*", payloadSegment: payloadSegment, with: key)
        },
        Row("header not JSON (signed)", .rejected(.malformed("the header is not base64url JSON"))) {
            VerifierSupport.sign(headerSegment: VerifierSupport.b64("RS256 k1"), payloadSegment: payloadSegment, with: key)
        },
        Row("header a JSON array (signed)", .rejected(.malformed("the header is not base64url JSON"))) {
            VerifierSupport.sign(headerSegment: VerifierSupport.b64("[\"RS256\",\"k1\"]"), payloadSegment: payloadSegment, with: key)
        },
        Row("payload not base64url (signed)", .rejected(.malformed("the payload is not base64url"))) {
            VerifierSupport.sign(headerSegment: headerSegment(header), payloadSegment: payloadSegment + "*", with: key)
        },
        Row("payload with a doubled '==' padding (signed)", .rejected(.malformed("the payload is not base64url"))) {
            VerifierSupport.sign(headerSegment: headerSegment(header), payloadSegment: payloadSegment + "====", with: key)
        },
        Row("payload in standard base64 with '+' and '/' (signed)", .rejected(.malformed("the payload is not base64url"))) {
            let odd = claims(["email": "a>>>???>>>@privaterelay.appleid.com"])  // encodes with "+" and "/" at any alignment
            let payload = Data(VerifierSupport.json(odd)).base64EncodedString().replacingOccurrences(of: "=", with: "")
            precondition(payload.contains("+") || payload.contains("/"))
            return VerifierSupport.sign(headerSegment: headerSegment(header), payloadSegment: payload, with: key)
        },
        Row("payload not JSON (signed)", .rejected(.malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)"))) {
            VerifierSupport.sign(headerSegment: headerSegment(header), payloadSegment: VerifierSupport.b64("not json"), with: key)
        },
        Row("payload empty (signed)", .rejected(.malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)"))) {
            VerifierSupport.sign(headerSegment: headerSegment(header), payloadSegment: "", with: key)
        },
        Row("claims without sub (signed)", .rejected(.malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)"))) {
            token(claims: claims(["sub": nil]))
        },
        Row("exp as a string (signed)", .rejected(.malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)"))) {
            token(claims: claims(["exp": String(now + 600)]))
        },
        Row(
            "aud as an array containing the right audience (signed)",
            .rejected(.malformed("the claims are not an identity token's (iss, aud, exp, iat, sub)"))
        ) { token(claims: claims(["aud": [audience]])) },

        // issuer near-misses (all signed by k1)
        Row("iss with a trailing slash", .rejected(.wrongIssuer(issuer + "/"))) { token(claims: claims(["iss": issuer + "/"])) },
        Row("iss appleid.apple.com.evil.com", .rejected(.wrongIssuer(issuer + ".evil.com"))) {
            token(claims: claims(["iss": issuer + ".evil.com"]))
        },
        Row("iss over http", .rejected(.wrongIssuer("http://appleid.apple.com"))) { token(claims: claims(["iss": "http://appleid.apple.com"])) },
        Row("iss in upper case", .rejected(.wrongIssuer("https://APPLEID.apple.com"))) {
            token(claims: claims(["iss": "https://APPLEID.apple.com"]))
        },
        Row("iss without scheme", .rejected(.wrongIssuer("appleid.apple.com"))) { token(claims: claims(["iss": "appleid.apple.com"])) },
        Row("iss empty", .rejected(.claimLengthOutOfBounds(claim: "iss", bytes: 0))) { token(claims: claims(["iss": ""])) },

        // audience near-misses
        Row("aud in another case", .rejected(.wrongAudience("com.example.App"))) { token(claims: claims(["aud": "com.example.App"])) },
        Row("aud with a trailing space", .rejected(.wrongAudience(audience + " "))) { token(claims: claims(["aud": audience + " "])) },
        Row("aud a prefix of the client ID", .rejected(.wrongAudience("com.example"))) { token(claims: claims(["aud": "com.example"])) },
        Row("aud the client ID with a suffix", .rejected(.wrongAudience(audience + ".evil"))) { token(claims: claims(["aud": audience + ".evil"])) },
        Row("aud empty", .rejected(.claimLengthOutOfBounds(claim: "aud", bytes: 0))) { token(claims: claims(["aud": ""])) },

        // time, leeway 60
        Row("exp = now − 61", .rejected(.expired(expiresAt: now - 61, now: now))) { token(claims: claims(["exp": now - 61, "iat": now - 600])) },
        Row("exp = now − 60", .rejected(.expired(expiresAt: now - 60, now: now))) { token(claims: claims(["exp": now - 60, "iat": now - 600])) },
        Row("exp = now − 59", .accepted) { token(claims: claims(["exp": now - 59, "iat": now - 600])) },
        Row("iat = now + 61", .rejected(.issuedInTheFuture(issuedAt: now + 61, now: now))) { token(claims: claims(["iat": now + 61])) },
        Row("iat = now + 60", .accepted) { token(claims: claims(["iat": now + 60])) },
        Row("iat = now + 59", .accepted) { token(claims: claims(["iat": now + 59])) },
        Row(
            "exp far in the past, iat in the future",
            .rejectedAnyOf([.expired(expiresAt: 0, now: now), .issuedInTheFuture(issuedAt: now + 3600, now: now)])
        ) {
            token(claims: claims(["exp": 0, "iat": now + 3600]))
        },

        // nonce
        Row("nonce mismatched", .rejected(.nonceMismatch), nonce: Nonce(raw: "sent-nonce")) {
            withNonce("another-nonce", supported: true)
        },
        Row("nonce matched", .accepted, nonce: Nonce(raw: "sent-nonce")) { withNonce("sent-nonce", supported: true) },
        Row("nonce differing in case", .rejected(.nonceMismatch), nonce: Nonce(raw: "sent-nonce")) { withNonce("Sent-nonce", supported: true) },
        Row("nonce missing, nonce_supported true", .rejected(.nonceMissing), nonce: Nonce(raw: "sent-nonce")) {
            withNonce(nil, supported: true)
        },
        Row("nonce missing, nonce_supported false", .accepted, nonce: Nonce(raw: "sent-nonce")) { withNonce(nil, supported: false) },
        Row("nonce in the token, none expected", .accepted) { withNonce("whatever", supported: true) },
        Row(
            "sha256 convention: the token carries the hex SHA-256 of the raw nonce", .accepted, nonce: Nonce(raw: "raw-nonce-42", convention: .sha256)
        ) {
            withNonce(sha256Hex("raw-nonce-42"), supported: true)
        },
        Row(
            "sha256 convention: the token carries the raw nonce", .rejected(.nonceConventionMismatch(expected: .sha256)),
            nonce: Nonce(raw: "raw-nonce-42", convention: .sha256)
        ) {
            withNonce("raw-nonce-42", supported: true)
        },
        Row("plain convention: the token carries the hash", .rejected(.nonceConventionMismatch(expected: .plain)), nonce: Nonce(raw: "raw-nonce-42"))
        {
            withNonce(sha256Hex("raw-nonce-42"), supported: true)
        },
        Row("sha256 convention: upper-case hex", .rejected(.nonceMismatch), nonce: Nonce(raw: "raw-nonce-42", convention: .sha256)) {
            withNonce(sha256Hex("raw-nonce-42").uppercased(), supported: true)
        },
    ]

    static let keySet = AppleKeySet(jwksJSON: VerifierSupport.jwks([(VerifierSupport.key1, "k1")]))

    static func verifier() -> IdentityTokenVerifier {
        IdentityTokenVerifier(
            environment: .production, audiences: [audience], keys: keySet, leeway: 60,
            clock: { Date(timeIntervalSince1970: TimeInterval(AttackTokenTests.now)) })
    }

    @Test("each forged or malformed token gets the verdict of its row", arguments: rows)
    func row(_ row: Row) async throws {
        let token = row.token()
        let error = await VerifierSupport.failure { try await Self.verifier().verify(token, nonce: row.nonce) }
        switch row.verdict {
        case .accepted:
            #expect(error == nil, "\(row.name): \(String(describing: error))")
        case .rejected(let expected):
            #expect(error as? IdentityTokenError == expected, "\(row.name): got \(String(describing: error))")
        case .rejectedAnyOf(let expected):
            let got = error as? IdentityTokenError
            #expect(got.map(expected.contains) == true, "\(row.name): got \(String(describing: error))")
        case .acceptedOr(let expected):
            #expect(error == nil || error as? IdentityTokenError == expected, "\(row.name): got \(String(describing: error))")
        }
    }

    @Test(
        "a signature whose last character carries non-zero unused bits is refused (one token, one spelling)"
    )
    func nonCanonicalSignature() async throws {
        let token = Self.token()
        var bytes = Array(token.utf8)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        let last = try #require(alphabet.firstIndex(of: bytes[bytes.count - 1]))
        bytes[bytes.count - 1] = alphabet[last ^ 1]  // 342 characters carry 2048 bits: the last 4 bits are unused
        let respelled = String(decoding: bytes, as: UTF8.self)
        #expect(respelled != token)
        await #expect(throws: IdentityTokenError.invalidSignature) { try await Self.verifier().verify(respelled) }
    }

    @Test("the nonce Apple echoes for native apps is the lowercase hex SHA-256 of the raw value")
    func nonceTransmittedValue() {
        let nonce = Nonce(raw: "raw-nonce-42", convention: .sha256)
        #expect(nonce.transmittedValue == Self.sha256Hex("raw-nonce-42"))
        #expect(nonce.transmittedValue.count == 64)
        #expect(nonce.transmittedValue == nonce.transmittedValue.lowercased())
        #expect(Nonce(raw: "abc").transmittedValue == "abc")
        #expect(Nonce(raw: "abc", convention: .sha256).transmittedValue == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test("the same token is accepted by the same verifier again and again (the header cache changes nothing)")
    func repeatedVerification() async throws {
        let verifier = Self.verifier()
        let token = Self.token()
        for _ in 0..<3 { _ = try await verifier.verify(token) }
        // A header the cache has seen with a valid signature does not vouch for another signature.
        let parts = Self.segments(token)
        let forged = parts[0] + "." + parts[1] + "." + Self.segments(Self.token(key: VerifierSupport.attackerKey))[2]
        await #expect(throws: IdentityTokenError.invalidSignature) { try await verifier.verify(forged) }
        // More distinct headers than the cache holds: each still judged on its own.
        for index in 0..<80 {
            let unknown = Self.token(header: ["alg": "RS256", "kid": "k1", "typ": "JWT\(index)"])
            _ = try await verifier.verify(unknown)
            let refused = Self.token(header: ["alg": "RS256", "kid": "k1", "typ": "JWT\(index)"], key: VerifierSupport.attackerKey)
            await #expect(throws: IdentityTokenError.invalidSignature) { try await verifier.verify(refused) }
        }
        _ = try await verifier.verify(token)
    }

    @Test("a notification verifier refuses the same forgeries")
    func notificationForgeries() async throws {
        let verifier = NotificationVerifier(
            environment: .production, audiences: [Self.audience], keys: Self.keySet,
            clock: { Date(timeIntervalSince1970: TimeInterval(AttackTokenTests.now)) })
        let events = "{\"type\":\"consent-revoked\",\"sub\":\"001234.x.0001\",\"event_time\":1699999999000}"
        let claims: [String: Any] = ["iss": Self.issuer, "aud": Self.audience, "iat": Self.now, "jti": "j1", "events": events]
        let good = VerifierSupport.sign(header: Self.header, claims: claims, with: Self.key)
        let notification = try await verifier.verify(payload: good)
        #expect(notification.events.first?.type == .consentRevoked)
        #expect(notification.id == "j1")

        let payload = VerifierSupport.b64(VerifierSupport.json(claims))
        let forged: [(String, IdentityTokenError)] = [
            (VerifierSupport.b64(VerifierSupport.json(["alg": "none", "kid": "k1"])) + "." + payload + ".", .unsupportedAlgorithm("none")),
            (VerifierSupport.sign(header: Self.header, claims: claims, with: VerifierSupport.attackerKey), .invalidSignature),
            (
                VerifierSupport.sign(
                    header: ["alg": "RS256", "kid": "k1", "jwk": Self.attackerJWK], claims: claims, with: VerifierSupport.attackerKey),
                .forbiddenHeader("jwk")
            ),
            (
                VerifierSupport.sign(header: Self.header, claims: claims.merging(["iss": Self.issuer + "/"]) { $1 }, with: Self.key),
                .wrongIssuer(Self.issuer + "/")
            ),
            (
                VerifierSupport.sign(header: Self.header, claims: claims.merging(["aud": "com.example.App"]) { $1 }, with: Self.key),
                .wrongAudience("com.example.App")
            ),
            (
                VerifierSupport.sign(header: Self.header, claims: claims.merging(["exp": Self.now - 61]) { $1 }, with: Self.key),
                .expired(expiresAt: Self.now - 61, now: Self.now)
            ),
            (
                VerifierSupport.sign(header: Self.header, claims: claims.merging(["iat": Self.now + 61]) { $1 }, with: Self.key),
                .issuedInTheFuture(issuedAt: Self.now + 61, now: Self.now)
            ),
        ]
        for (token, expected) in forged {
            let error = await VerifierSupport.failure { try await verifier.verify(payload: token) }
            #expect(error as? IdentityTokenError == expected, "expected \(expected), got \(String(describing: error))")
        }
        // An identity token is not a notification.
        await #expect(throws: IdentityTokenError.self) { try await verifier.verify(payload: Self.token()) }
    }
}
