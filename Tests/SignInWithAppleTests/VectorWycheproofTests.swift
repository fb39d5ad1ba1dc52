import AppleIDProtocol
import Crypto
import Foundation
import SignInWithApple
import Testing
import _CryptoExtras

/// Project Wycheproof (Tests/Fixtures/wycheproof) against the kit:
/// - RSASSA-PKCS1-v1_5 SHA-256 2048: the exact primitive `SignedTokenVerifier` calls, with the key
///   the kit's `AppleKeySet` loads from the group's JWK (the signing input of a JWS cannot be chosen,
///   so these messages cannot travel inside a token);
/// - compact JWS tests through `IdentityTokenVerifier` (only RS256 can pass the signature check);
/// - JWK sets through `AppleKeySet(jwksJSON:)`.
///
/// `result`: "valid" must pass, "invalid" must fail, "acceptable" may do either (pinned below).
@Suite("Wycheproof RSA PKCS#1 v1.5, JWS and JWK vectors through the kit")
struct VectorWycheproofTests {
    /// Labels that pyca/cryptography and PyJWT disagree with (wycheproof/README.md): acceptable.
    static let relabelledAcceptable: Set<Int> = [346, 347, 350, 351, 367, 370, 372, 373]

    static let issuer = "https://appleid.apple.com"
    static let audience = "wycheproof"

    static func verifier(keys: AppleKeySet) -> IdentityTokenVerifier {
        IdentityTokenVerifier(issuers: [issuer], audiences: [audience], keys: keys, clock: { Date(timeIntervalSince1970: 1_700_000_000) })
    }

    static func object(_ path: String) throws -> [String: Any] {
        try #require(try VerifierSupport.vectorJSON(path) as? [String: Any])
    }

    static func groups(_ file: [String: Any]) throws -> [[String: Any]] {
        try #require(file["testGroups"] as? [[String: Any]])
    }

    static func tests(_ group: [String: Any]) throws -> [[String: Any]] {
        try #require(group["tests"] as? [[String: Any]])
    }

    static func alg(ofJWS jws: String) -> String? {
        guard let header = jws.split(separator: ".", omittingEmptySubsequences: false).first,
            let bytes = try? Base64URL.decode(String(header)),
            let object = try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]
        else { return nil }
        return object["alg"] as? String
    }

    // MARK: RSASSA-PKCS1-v1_5 with SHA-256, 2048-bit keys

    struct RSAFile: Decodable {
        struct Group: Decodable {
            struct JWK: Decodable {
                var n: String
                var e: String
            }

            struct PublicKey: Decodable {
                var modulus: String
                var publicExponent: String
            }

            var keySize: Int
            var sha: String
            var keyJwk: JWK?
            var publicKey: PublicKey
            var tests: [WycheproofSignatureCase]
        }

        var algorithm: String
        var numberOfTests: Int
        var testGroups: [Group]
    }

    @Test("RSA PKCS#1 v1.5 SHA-256 (2048): valid verify, invalid do not, with the key AppleKeySet loads from the group's JWK")
    func rsaPKCS1() async throws {
        let file = try JSONDecoder().decode(
            RSAFile.self, from: Data(try VerifierSupport.vectorBytes("wycheproof/rsa_signature_2048_sha256_test.json")))
        #expect(file.algorithm == "RSASSA-PKCS1-v1_5")
        #expect(file.numberOfTests == 259)

        var counts: [String: Int] = [:]
        var passed: [String: Int] = [:]
        var kitPassed: [String: Int] = [:]
        var acceptable: [String] = []
        for group in file.testGroups {
            #expect(group.sha == "SHA-256")
            #expect(group.keySize == 2048)
            // n and e as the JWK names them, or converted from the group's hex fields.
            let n = try group.keyJwk.map { try Base64URL.decode($0.n) } ?? Array(VerifierSupport.hex(group.publicKey.modulus).drop { $0 == 0 })
            let e = try group.keyJwk.map { try Base64URL.decode($0.e) } ?? VerifierSupport.hex(group.publicKey.publicExponent)
            #expect(Array(VerifierSupport.hex(group.publicKey.modulus).drop { $0 == 0 }) == n)
            let jwks = VerifierSupport.json([
                "keys": [["kty": "RSA", "kid": "w", "use": "sig", "alg": "RS256", "n": Base64URL.encode(n), "e": Base64URL.encode(e)]]
            ])
            let keySet = AppleKeySet(jwksJSON: jwks)
            #expect(await keySet.knownKeyIDs == ["w"])
            let key = try await keySet.key(for: "w")
            #expect(key.keySizeInBits == 2048)
            #expect(try key.getKeyPrimitives() == (try _RSA.Signing.PublicKey(n: n, e: e).getKeyPrimitives()))

            for test in group.tests {
                let message = VerifierSupport.hex(test.msg)
                let signature = VerifierSupport.hex(test.sig)
                // Exactly the kit's call (SignedToken.swift), and the kit's length gate before it.
                let verifies = key.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature), for: SHA256.hash(data: message), padding: .insecurePKCS1v1_5)
                let kitVerifies = signature.count == key.keySizeInBits / 8 && verifies
                counts[test.result, default: 0] += 1
                if verifies { passed[test.result, default: 0] += 1 }
                if kitVerifies { kitPassed[test.result, default: 0] += 1 }
                switch test.result {
                case "valid":
                    #expect(verifies, "tc \(test.tcId) \(test.comment) \(test.flags): a valid signature is refused")
                    #expect(kitVerifies, "tc \(test.tcId): the kit's length gate refuses a valid signature")
                case "invalid":
                    #expect(!verifies, "tc \(test.tcId) \(test.comment) \(test.flags): an invalid signature verifies")
                case "acceptable":
                    acceptable.append("tc \(test.tcId) \(test.flags): \(verifies ? "accepted" : "rejected")")
                    // Pinned: BoringSSL builds the expected DigestInfo and compares; the legacy
                    // encoding without NULL (MissingNull) is refused.
                    if test.flags.contains("MissingNull") { #expect(!verifies) }
                default:
                    Issue.record("tc \(test.tcId): unknown result \(test.result)")
                }
            }
        }
        #expect(counts == ["valid": 9, "invalid": 249, "acceptable": 1])
        #expect(passed["valid"] == 9 && passed["invalid"] == nil)
        #expect(kitPassed == passed)
        print(
            "Wycheproof rsa_signature_2048_sha256: valid \(passed["valid"] ?? 0)/\(counts["valid"] ?? 0) verify, "
                + "invalid \(counts["invalid", default: 0] - passed["invalid", default: 0])/\(counts["invalid"] ?? 0) refused, "
                + "acceptable \(counts["acceptable"] ?? 0): \(acceptable.joined(separator: "; "))")
    }

    // MARK: Compact JWS through IdentityTokenVerifier

    /// The kit ignores `key_ops` (it honours `use`): a key published for ["encrypt"] still verifies.
    static let keyOpsIgnored: Set<Int> = [355]

    @Test("JWS vectors through IdentityTokenVerifier: only valid RS256 passes the signature check, everything else is refused")
    func jws() async throws {
        let file = try Self.object("wycheproof/json_web_signature_test.json")
        var tally: [String: Int] = [:]
        var acceptable: [String] = []
        var total = 0
        for group in try Self.groups(file) {
            // The group's public JWK as the key set (kid as published); groups with only a private
            // (symmetric) key publish that one, which the kit must ignore.
            let published = group["public"] ?? group["private"] ?? [:]
            let keySet = AppleKeySet(jwksJSON: VerifierSupport.json(["keys": [published]]))
            let verifier = Self.verifier(keys: keySet)
            for test in try Self.tests(group) {
                total += 1
                let tcId = try #require(test["tcId"] as? Int)
                let result = Self.relabelledAcceptable.contains(tcId) ? "acceptable" : try #require(test["result"] as? String)
                let comment = test["comment"] as? String ?? ""
                // One test (JsonSerialization) carries a JSON object instead of a compact JWS.
                let jws: String
                if let compact = test["jws"] as? String {
                    jws = compact
                } else {
                    jws = String(decoding: VerifierSupport.json(test["jws"] ?? [:]), as: UTF8.self)
                }
                let alg = Self.alg(ofJWS: jws)
                let error = await VerifierSupport.failure { try await verifier.verify(jws) }
                let error2 = try #require(error, "tc \(tcId): a Wycheproof JWS verified as an identity token")
                #expect(error2 is IdentityTokenError, "tc \(tcId): \(error2)")
                let signatureAccepted = VerifierSupport.signatureWasAccepted(error2)

                switch result {
                case "valid" where alg == "RS256":
                    #expect(signatureAccepted, "tc \(tcId) \(comment): a valid RS256 signature is refused: \(error2)")
                    tally["valid RS256 → signature accepted", default: 0] += signatureAccepted ? 1 : 0
                case "valid":
                    #expect(!signatureAccepted, "tc \(tcId) \(comment): alg \(alg ?? "?") passed the signature check")
                    tally["valid \(alg ?? "?") → refused (only RS256)", default: 0] += signatureAccepted ? 0 : 1
                case "invalid" where Self.keyOpsIgnored.contains(tcId):
                    // Pinned deviation, see keyOpsExcludingVerify below.
                    tally["invalid (key_ops [encrypt]) → signature accepted (kit ignores key_ops)", default: 0] += signatureAccepted ? 1 : 0
                case "invalid":
                    #expect(!signatureAccepted, "tc \(tcId) \(comment): an invalid JWS passed the signature check")
                    tally["invalid → refused", default: 0] += signatureAccepted ? 0 : 1
                default:
                    acceptable.append("tc \(tcId) \(alg ?? "?") \(signatureAccepted ? "accepted" : "refused")")
                    // All eight relabelled cases are PS384 / ES512 / HS256: none can pass here.
                    #expect(!signatureAccepted)
                }
            }
        }
        #expect(total == 401)
        #expect(tally["valid RS256 → signature accepted"] == 8)
        print(
            "Wycheproof json_web_signature (\(total)): \(tally.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)" }.joined(separator: ", ")); acceptable: \(acceptable.joined(separator: ", "))"
        )
    }

    @Test(
        "a key published with key_ops [\"encrypt\"] is not used to verify (Wycheproof JWS tc 355)"
    )
    func keyOpsExcludingVerify() async throws {
        let file = try Self.object("wycheproof/json_web_signature_test.json")
        let group = try #require(
            try Self.groups(file).first { group in
                (try? Self.tests(group))?.contains { $0["tcId"] as? Int == 355 } == true
            })
        let keySet = AppleKeySet(jwksJSON: VerifierSupport.json(["keys": [group["public"] ?? [:]]]))
        #expect(await keySet.knownKeyIDs.isEmpty)
        let jws = try #require(try Self.tests(group).first?["jws"] as? String)
        let error = await VerifierSupport.failure { try await Self.verifier(keys: keySet).verify(jws) }
        #expect(!VerifierSupport.signatureWasAccepted(try #require(error)))
    }

    @Test("the same key with key_ops [\"verify\"] or use sig is used; with use enc it is not")
    func keyUse() async throws {
        let base = VerifierSupport.jwk(VerifierSupport.key1.publicKey, kid: "k1")
        func loaded(_ changes: [String: Any?]) async -> [String] {
            var jwk = base
            for (name, value) in changes { jwk[name] = value }
            return await AppleKeySet(jwksJSON: VerifierSupport.json(["keys": [jwk]])).knownKeyIDs
        }
        #expect(await loaded([:]) == ["k1"])
        #expect(await loaded(["use": nil]) == ["k1"])
        #expect(await loaded(["use": nil, "alg": nil]) == ["k1"])
        #expect(await loaded(["use": nil, "key_ops": ["verify"]]) == ["k1"])
        #expect(await loaded(["use": "enc"]).isEmpty)
        #expect(await loaded(["alg": "RS512"]).isEmpty)
        #expect(await loaded(["alg": "PS256"]).isEmpty)
        #expect(await loaded(["kty": "rsa"]).isEmpty)
    }

    // MARK: JWK sets through AppleKeySet

    /// The kids each group's key set must yield. ROCA: the kit does not test moduli for the ROCA
    /// fingerprint (Infineon, CVE-2017-15361); a 2048-bit RSA key is loaded as any other (pinned;
    /// the vector's token is refused all the same: its signature does not verify).
    static let expectedKeys: [String: [String]] = [
        "rs256/5": ["kid-rsa-sign"],
        "jws_rsa_roca_key/7": ["kid-rsa-roca-sign"],
    ]

    @Test("JWK vectors through AppleKeySet: RS256 RSA keys load, every other key is skipped without a crash")
    func jwk() async throws {
        let file = try Self.object("wycheproof/json_web_key_test.json")
        var loadedGroups: [String] = []
        var total = 0
        for group in try Self.groups(file) {
            let comment = group["comment"] as? String ?? ""
            let published = try #require(group["public"] ?? group["private"])
            let keySet = AppleKeySet(jwksJSON: VerifierSupport.json(published))
            let loaded = await keySet.knownKeyIDs
            let verifier = Self.verifier(keys: keySet)
            for test in try Self.tests(group) {
                total += 1
                let tcId = try #require(test["tcId"] as? Int)
                let result = try #require(test["result"] as? String)
                let jws = try #require(test["jws"] as? String)
                let expected = Self.expectedKeys["\(comment)/\(tcId)"] ?? []
                #expect(loaded == expected, "tc \(tcId) \(comment): loaded \(loaded)")
                if !loaded.isEmpty { loadedGroups.append("tc \(tcId) \(comment) → \(loaded)") }
                let error = try #require(await VerifierSupport.failure { try await verifier.verify(jws) })
                #expect(error is IdentityTokenError)
                let signatureAccepted = VerifierSupport.signatureWasAccepted(error)
                // The ROCA key loads (above) but the vector's signature does not verify under it.
                if result == "valid" && Self.alg(ofJWS: jws) == "RS256" {
                    #expect(signatureAccepted, "tc \(tcId) \(comment): \(error)")
                } else {
                    #expect(!signatureAccepted, "tc \(tcId) \(comment): \(result) passed the signature check")
                }
            }
        }
        #expect(total == 26)
        print("Wycheproof json_web_key (\(total)): loaded only \(loadedGroups.joined(separator: "; ")); all others skipped")
    }

    @Test("duplicate kids in one key set: the kit keeps one of them, no crash (pinned)")
    func duplicateKid() async throws {
        let jwks = VerifierSupport.json([
            "keys": [
                VerifierSupport.jwk(VerifierSupport.key1.publicKey, kid: "dup"), VerifierSupport.jwk(VerifierSupport.key2.publicKey, kid: "dup"),
            ]
        ])
        let keySet = AppleKeySet(jwksJSON: jwks)
        #expect(await keySet.knownKeyIDs == ["dup"])
        let verifier = Self.verifier(keys: keySet)
        let claims = VerifierSupport.claims(now: 1_700_000_000, audience: Self.audience)
        let byFirst = VerifierSupport.sign(header: ["alg": "RS256", "kid": "dup"], claims: claims, with: VerifierSupport.key1)
        let bySecond = VerifierSupport.sign(header: ["alg": "RS256", "kid": "dup"], claims: claims, with: VerifierSupport.key2)
        let first = await VerifierSupport.failure { try await verifier.verify(byFirst) }
        let second = await VerifierSupport.failure { try await verifier.verify(bySecond) }
        // Exactly one of the two keys is used (the last one published).
        #expect(first as? IdentityTokenError == .invalidSignature)
        #expect(second == nil)
    }
}
