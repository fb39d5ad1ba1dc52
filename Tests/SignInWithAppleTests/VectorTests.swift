import AppleIDProtocol
import Foundation
import SignInWithApple
import Testing

/// Tokens and a notification that Apple really issued (Tests/Fixtures/apple), checked by the
/// kit's verifiers exactly as an app would: accepted at their issue time with the typed claims of
/// the manifest, refused when expired, for another audience or issuer, and when any character changes.
@Suite("Real Apple id_tokens and notification through the kit's verifiers")
struct VectorTests {
    typealias Entry = VerifierSupport.IDTokenEntry
    static let appleIssuer = "https://appleid.apple.com"

    static let entries = VerifierSupport.idTokenEntries
    static let withCodeHash = entries.filter { $0.claims.c_hash != nil }
    static let signedWithEXaunmL = entries.filter { $0.keyID == "eXaunmL" }

    func keys(_ path: String) throws -> AppleKeySet {
        AppleKeySet(jwksJSON: try VerifierSupport.vectorBytes(path))
    }

    func verifier(
        _ entry: Entry, issuers: Set<String> = [VectorTests.appleIssuer], audiences: Set<String>? = nil, keys: AppleKeySet? = nil,
        clock: (@Sendable () -> Date)? = nil
    ) throws -> IdentityTokenVerifier {
        let at = Date(timeIntervalSince1970: TimeInterval(entry.verify_at_unix))
        return IdentityTokenVerifier(
            issuers: issuers, audiences: audiences ?? [entry.claims.aud], keys: try keys ?? self.keys(entry.jwksPath),
            clock: clock ?? { at })
    }

    // MARK: The manifest itself

    @Test("the manifest lists five real tokens; each file exists and its header names the manifest's kid")
    func manifest() throws {
        let manifest = try VerifierSupport.idTokenManifest()
        #expect(manifest.tokens.count == 5)
        #expect(Self.entries.count == manifest.tokens.count)
        #expect(Self.withCodeHash.count == 4)
        #expect(Self.signedWithEXaunmL.count == 2)
        for entry in manifest.tokens {
            #expect(entry.signature_verifies)
            let token = try VerifierSupport.vectorText(entry.path)
            let header = try #require(token.split(separator: ".").first)
            let decoded = try JSONSerialization.jsonObject(with: Data(Base64URL.decode(String(header)))) as? [String: Any]
            #expect(decoded?["kid"] as? String == entry.keyID)
            #expect(decoded?["alg"] as? String == "RS256")
            #expect(!(try VerifierSupport.vectorBytes(entry.jwksPath)).isEmpty)
        }
    }

    // MARK: Accepted, with the manifest's claims

    @Test("each real token verifies at verify_at_unix and its typed claims are the manifest's", arguments: entries)
    func verifies(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        let identity = try await verifier(entry).verify(token)
        let claims = entry.claims
        #expect(identity.subject == claims.sub)
        #expect(identity.issuer == claims.iss)
        #expect(identity.audience == claims.aud)
        #expect(identity.issuedAt == Date(timeIntervalSince1970: TimeInterval(claims.iat)))
        #expect(identity.expiresAt == Date(timeIntervalSince1970: TimeInterval(claims.exp)))
        #expect(identity.email == claims.email)
        // Apple wrote these as the *strings* "true" in 2020-2023.
        #expect(identity.emailVerified == claims.email_verified.map { $0 == "true" })
        #expect(identity.isPrivateEmail == (claims.is_private_email == "true"))
        if claims.email_verified != nil {
            #expect(identity.claims.emailVerified?.style == .string)
            #expect(identity.emailVerified == true)
        }
        #expect(identity.authenticatedAt == claims.auth_time.map { Date(timeIntervalSince1970: TimeInterval($0)) })
        #expect(identity.nonceSupported == claims.nonce_supported)
        #expect(identity.realUserStatus == claims.real_user_status.flatMap(RealUserStatus.init(rawValue:)))
        #expect(identity.keyID == entry.keyID)
        #expect(identity.claims.nonce == claims.nonce)
        #expect(identity.claims.codeHash == claims.c_hash)
        #expect(identity.claims.accessTokenHash == claims.at_hash)
        #expect(identity.transferSubject == nil)
    }

    @Test("the typed claims of the individual tokens read as documented")
    func individualClaims() async throws {
        let byFile = Dictionary(uniqueKeysWithValues: Self.entries.map { ($0.file, $0) })
        let juice = try #require(byFile["id_tokens/juice_YuyXoY.jwt"])
        let identity = try await verifier(juice).verify(try VerifierSupport.vectorText(juice.path))
        #expect(identity.realUserStatus == .likelyReal)
        #expect(identity.isPrivateEmail)
        #expect(identity.email == "mn5bmf2yrs@privaterelay.appleid.com")

        let noEmail = try #require(byFile["id_tokens/gameroasters_noemail_eXaunmL.jwt"])
        let anonymous = try await verifier(noEmail).verify(try VerifierSupport.vectorText(noEmail.path))
        #expect(anonymous.email == nil)
        #expect(anonymous.emailVerified == nil)
        #expect(anonymous.isPrivateEmail == false)
        #expect(anonymous.subject == "001026.16112b36378440d995af22b268f00984.1744")
    }

    @Test("a verifier for several client IDs accepts each real token for its own")
    func severalAudiences() async throws {
        let audiences = Set(Self.entries.map(\.claims.aud))
        #expect(audiences.count == 4)
        for entry in Self.entries {
            let identity = try await verifier(entry, audiences: audiences).verify(try VerifierSupport.vectorText(entry.path))
            #expect(identity.audience == entry.claims.aud)
        }
    }

    // MARK: Refused

    @Test("each real token is refused today: expired", arguments: entries)
    func expiredToday(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        let error = await VerifierSupport.failure { try await verifier(entry, clock: { Date() }).verify(token) }
        guard let expired = error as? IdentityTokenError, expired.kind == .expired, let expiresAt = expired.tokenTime, let now = expired.now else {
            Issue.record("expected expired, got \(String(describing: error))")
            return
        }
        #expect(expiresAt == entry.claims.exp)
        #expect(now > entry.claims.exp + 60)
    }

    @Test("each real token is accepted up to exp + leeway and refused from there", arguments: entries)
    func expiryBoundary(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        let exp = TimeInterval(entry.claims.exp)
        _ = try await verifier(entry, clock: { Date(timeIntervalSince1970: exp + 59) }).verify(token)
        await #expect(throws: IdentityTokenError.expired(expiresAt: entry.claims.exp, now: entry.claims.exp + 60)) {
            try await verifier(entry, clock: { Date(timeIntervalSince1970: exp + 60) }).verify(token)
        }
    }

    @Test("each real token is refused for another audience", arguments: entries)
    func wrongAudience(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        await #expect(throws: IdentityTokenError.wrongAudience(entry.claims.aud)) {
            try await verifier(entry, audiences: ["com.example.another.app", entry.claims.aud + ".web"]).verify(token)
        }
    }

    @Test("each real token is refused when the accepted issuer is another", arguments: entries)
    func wrongIssuer(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        await #expect(throws: IdentityTokenError.wrongIssuer(Self.appleIssuer)) {
            try await verifier(entry, issuers: ["http://127.0.0.1:8080"]).verify(token)
        }
        let local = IdentityTokenVerifier(
            environment: .custom(baseURL: "http://127.0.0.1:8080"), audiences: [entry.claims.aud], keys: try keys(entry.jwksPath),
            clock: { Date(timeIntervalSince1970: TimeInterval(entry.verify_at_unix)) })
        await #expect(throws: IdentityTokenError.wrongIssuer(Self.appleIssuer)) { try await local.verify(token) }
        // …while the production environment names exactly Apple's issuer.
        let production = IdentityTokenVerifier(
            environment: .production, audiences: [entry.claims.aud], keys: try keys(entry.jwksPath),
            clock: { Date(timeIntervalSince1970: TimeInterval(entry.verify_at_unix)) })
        _ = try await production.verify(token)
    }

    /// Every position of every segment (and each dot) replaced by another base64url character:
    /// once flipping the character's high bit (always changes the decoded bytes) and once its low
    /// bit (in a segment's last character that may only touch the unused padding bits).
    @Test("each real token with any single character changed is refused, never accepted", arguments: entries)
    func anyChangedCharacter(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        let verifier = try verifier(entry)
        _ = try await verifier.verify(token)  // the original verifies with this very verifier
        let outcome = await Self.mutate(token) { mutated in
            await VerifierSupport.failure { try await verifier.verify(mutated) }
        }
        #expect(outcome.tried >= 2 * (token.utf8.count - 2))
        #expect(outcome.accepted.isEmpty, "accepted mutations (segment, position, replacement): \(outcome.accepted.prefix(5))")
        #expect(outcome.foreignErrors.isEmpty, "non-IdentityTokenError errors: \(outcome.foreignErrors.prefix(3))")
        // Only the signature's last character can be changed in its unused (padding) bits alone;
        // that case is checked on its own in the test below.
        #expect(outcome.paddingOnlyTried == 1)
    }

    @Test(
        "a real token whose signature's last character differs only in its unused padding bits is refused",
        arguments: entries)
    func nonCanonicalSignature(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        let verifier = try verifier(entry)
        let mutated = Self.paddingBitsFlipped(token)
        #expect(mutated != token)
        #expect(try Base64URL.decode(String(mutated.split(separator: ".")[2])) == (try Base64URL.decode(String(token.split(separator: ".")[2]))))
        await #expect(throws: IdentityTokenError.invalidSignature) { try await verifier.verify(mutated) }
    }

    /// The token with the lowest unused bit of its signature's last character set.
    static func paddingBitsFlipped(_ token: String) -> String {
        var bytes = Array(token.utf8)
        let index = alphabet.firstIndex(of: bytes[bytes.count - 1])!
        bytes[bytes.count - 1] = alphabet[index ^ 1]
        return String(decoding: bytes, as: UTF8.self)
    }

    struct MutationOutcome {
        var tried = 0
        /// Mutations that verified (excluding padding-only ones).
        var accepted: [String] = []
        var foreignErrors: [String] = []
        /// Mutations of the signature's last character that touch only its unused bits: the
        /// decoded signature is the same, so they are judged apart (see nonCanonicalSignature).
        var paddingOnlyTried = 0
        var paddingOnlyAccepted: [String] = []
    }

    static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)

    /// Applies `check` to every single-character mutation of a compact JWS.
    static func mutate(_ token: String, check: (String) async -> (any Error)?) async -> MutationOutcome {
        var outcome = MutationOutcome()
        let bytes = Array(token.utf8)
        let dots = bytes.indices.filter { bytes[$0] == UInt8(ascii: ".") }
        for position in bytes.indices {
            let replacements: [UInt8]
            if let index = alphabet.firstIndex(of: bytes[position]) {
                replacements = [alphabet[index ^ 32], alphabet[index ^ 1]]
            } else {
                replacements = [UInt8(ascii: "A")]  // a dot
            }
            for replacement in replacements {
                var mutated = bytes
                mutated[position] = replacement
                outcome.tried += 1
                let segment = position < dots[0] ? "header" : position < dots[1] ? "payload" : position == dots[1] ? "dot" : "signature"
                let unusedBits = ((bytes.count - dots[1] - 1) * 6) % 8
                let paddingOnly =
                    position == bytes.count - 1
                    && (alphabet.firstIndex(of: bytes[position])! ^ alphabet.firstIndex(of: replacement)!) < (1 << unusedBits)
                let error = await check(String(decoding: mutated, as: UTF8.self))
                if paddingOnly {
                    outcome.paddingOnlyTried += 1
                    if error == nil { outcome.paddingOnlyAccepted.append("\(segment)@\(position)") }
                    continue
                }
                switch error {
                case nil:
                    outcome.accepted.append("\(segment)@\(position): \(UnicodeScalar(bytes[position]))→\(UnicodeScalar(replacement))")
                case let error? where !(error is IdentityTokenError):
                    outcome.foreignErrors.append("\(segment)@\(position): \(error)")
                default: break
                }
            }
        }
        return outcome
    }

    // MARK: at_hash and c_hash

    @Test("the whitepaek token's at_hash binds it to its access token")
    func accessTokenHash() async throws {
        let entry = try #require(Self.entries.first { $0.hash_bindings?["at_hash"] != nil })
        let binding = try #require(entry.hash_bindings?["at_hash"])
        #expect(TokenHash.of(binding.value_hashed) == binding.claim)
        #expect(entry.claims.at_hash == binding.claim)
        let token = try VerifierSupport.vectorText(entry.path)
        let verifier = try verifier(entry)
        let identity = try await verifier.verify(token, accessToken: binding.value_hashed)
        #expect(identity.claims.accessTokenHash == binding.claim)
        await #expect(throws: IdentityTokenError.accessTokenHashMismatch) {
            try await verifier.verify(token, accessToken: binding.value_hashed + "x")
        }
        await #expect(throws: IdentityTokenError.accessTokenHashMismatch) {
            try await verifier.verify(token, accessToken: "a08c1600e80f84d44842ce3342abac413.0.mruy.IyMPSXmTYtMyUCDWDKKN3G")
        }
    }

    @Test("a code that does not match c_hash is refused: codeHashMismatch", arguments: withCodeHash)
    func codeHash(_ entry: Entry) async throws {
        let token = try VerifierSupport.vectorText(entry.path)
        let verifier = try verifier(entry)
        await #expect(throws: IdentityTokenError.codeHashMismatch) {
            try await verifier.verify(token, authorizationCode: "c1234567890abcdef.0.mrxv.not-the-code")
        }
        // Without a code nothing is bound, and the token stands.
        _ = try await verifier.verify(token)
    }

    // MARK: Nonce on real tokens

    @Test("the whitepaek token's nonce: the sent value passes, another is nonceMismatch, its hash a convention mismatch")
    func realNonce() async throws {
        let entry = try #require(Self.entries.first { $0.claims.nonce != nil })
        let nonce = try #require(entry.claims.nonce)
        let token = try VerifierSupport.vectorText(entry.path)
        let verifier = try verifier(entry)
        _ = try await verifier.verify(token, nonce: Nonce(raw: nonce))
        await #expect(throws: IdentityTokenError.nonceMismatch) { try await verifier.verify(token, nonce: Nonce(raw: nonce + "0")) }
        await #expect(throws: IdentityTokenError.nonceConventionMismatch(expected: .sha256)) {
            try await verifier.verify(token, nonce: Nonce(raw: nonce, convention: .sha256))
        }
    }

    @Test("a real token without nonce but nonce_supported true, checked with a nonce: nonceMissing")
    func realNonceMissing() async throws {
        let entry = try #require(Self.entries.first { $0.claims.nonce == nil && $0.claims.nonce_supported == true })
        let token = try VerifierSupport.vectorText(entry.path)
        await #expect(throws: IdentityTokenError.nonceMissing) { try await verifier(entry).verify(token, nonce: Nonce(raw: "n-0S6_WzA2Mj")) }
    }

    // MARK: Key sets that do not fit

    @Test("the bogus key set (a DER blob in n) verifies nothing and crashes nothing", arguments: signedWithEXaunmL)
    func bogusKeySet(_ entry: Entry) async throws {
        let bogus = try keys("apple/jwks/bogus_eXaunmL_spki_in_n.json")
        #expect(await bogus.knownKeyIDs.isEmpty)
        let token = try VerifierSupport.vectorText(entry.path)
        let error = await VerifierSupport.failure { try await verifier(entry, keys: bogus).verify(token) }
        let refusal = error as? IdentityTokenError
        if refusal != .unknownKeyID("eXaunmL") && refusal?.kind != .keySetUnavailable {
            Issue.record("expected unknownKeyID or keySetUnavailable, got \(String(describing: error))")
        }
    }

    @Test("a real token checked against the other year's key set: unknownKeyID, no key borrowed", arguments: entries)
    func otherYearsKeySet(_ entry: Entry) async throws {
        let other = entry.jwksPath.contains("2020") ? "apple/jwks/2023_W6WcOKB_fh6Bs8C_YuyXoY.json" : "apple/jwks/2020_86D88Kf_eXaunmL.json"
        let token = try VerifierSupport.vectorText(entry.path)
        await #expect(throws: IdentityTokenError.unknownKeyID(entry.keyID)) {
            try await verifier(entry, keys: try keys(other)).verify(token)
        }
    }

    @Test("a real token whose kid names another of Apple's keys: invalidSignature", arguments: entries)
    func kidBoundToItsKey(_ entry: Entry) async throws {
        // The token's kid, but the modulus of another key of the same set.
        let set = try #require(try VerifierSupport.vectorJSON(entry.jwksPath) as? [String: Any])
        var published = try #require(set["keys"] as? [[String: Any]])
        let own = try #require(published.firstIndex { $0["kid"] as? String == entry.keyID })
        let other = try #require(published.firstIndex { $0["kid"] as? String != entry.keyID })
        published[own]["n"] = published[other]["n"]
        let swapped = AppleKeySet(jwksJSON: VerifierSupport.json(["keys": published]))
        let token = try VerifierSupport.vectorText(entry.path)
        await #expect(throws: IdentityTokenError.invalidSignature) { try await verifier(entry, keys: swapped).verify(token) }
    }

    // MARK: The real notification

    struct RealNotification {
        let entry: VerifierSupport.NotificationManifest.Entry
        let token: String
        let keys: AppleKeySet

        init() throws {
            let manifest = try VerifierSupport.notificationManifest()
            #expect(manifest.notifications.count == 1)
            entry = try #require(manifest.notifications.first)
            token = try VerifierSupport.vectorText(entry.path)
            keys = AppleKeySet(jwksJSON: try VerifierSupport.vectorBytes(entry.jwksPath))
        }

        func verifier(audiences: Set<String>? = nil, at unix: TimeInterval? = nil) -> NotificationVerifier {
            let at = Date(timeIntervalSince1970: unix ?? TimeInterval(entry.verify_at_unix))
            return NotificationVerifier(environment: .production, audiences: audiences ?? [entry.claims.aud], keys: keys, clock: { at })
        }

        var body: [UInt8] { VerifierSupport.json(["payload": token]) }
    }

    @Test("the real email-disabled notification verifies: event, subject, relay address, milliseconds, jti")
    func notificationVerifies() async throws {
        let real = try RealNotification()
        let notification = try await real.verifier().verify(body: real.body)
        #expect(notification.audience == real.entry.claims.aud)
        #expect(notification.id == real.entry.claims.jti)
        #expect(notification.issuedAt == Date(timeIntervalSince1970: TimeInterval(real.entry.claims.iat)))
        #expect(notification.events.count == 1)
        let event = try #require(notification.events.first)
        let expected = real.entry.events_decoded
        #expect(event.type == .emailDisabled)
        #expect(event.type.rawValue == expected.type)
        #expect(!event.type.isAccountDeletion)
        #expect(event.subject == expected.sub)
        #expect(event.email == expected.email)
        #expect(event.isPrivateEmail == BooleanClaim(true, style: .string))
        #expect(expected.is_private_email == "true")
        #expect(event.eventTime == expected.event_time)
        #expect(event.eventTime == 1_630_085_403_648)
        #expect(event.eventDate == Date(timeIntervalSince1970: 1_630_085_403.648))
        #expect(abs(event.eventDate.timeIntervalSince1970 - TimeInterval(real.entry.claims.iat)) < 60)

        // The JWT alone verifies to the same notification.
        #expect(try await real.verifier().verify(payload: real.token) == notification)
    }

    @Test("the real notification is refused for another audience, once expired, and before its issue time")
    func notificationRefused() async throws {
        let real = try RealNotification()
        await #expect(throws: IdentityTokenError.wrongAudience(real.entry.claims.aud)) {
            try await real.verifier(audiences: ["com.gameroasters.other"]).verify(body: real.body)
        }
        let error = await VerifierSupport.failure { try await real.verifier(at: Date().timeIntervalSince1970).verify(body: real.body) }
        guard let expired = error as? IdentityTokenError, expired.kind == .expired, let expiresAt = expired.tokenTime else {
            Issue.record("expected expired, got \(String(describing: error))")
            return
        }
        #expect(expiresAt == real.entry.claims.exp)
        let exp = TimeInterval(real.entry.claims.exp)
        _ = try await real.verifier(at: exp + 59).verify(body: real.body)
        await #expect(throws: IdentityTokenError.expired(expiresAt: real.entry.claims.exp, now: real.entry.claims.exp + 60)) {
            try await real.verifier(at: exp + 60).verify(body: real.body)
        }
        let iat = real.entry.claims.iat
        await #expect(throws: IdentityTokenError.issuedInTheFuture(issuedAt: iat, now: iat - 61)) {
            try await real.verifier(at: TimeInterval(iat - 61)).verify(body: real.body)
        }
        // Verified with the key set of another year: the key is unknown.
        let other = NotificationVerifier(
            environment: .production, audiences: [real.entry.claims.aud],
            keys: AppleKeySet(jwksJSON: try VerifierSupport.vectorBytes("apple/jwks/2023_W6WcOKB_fh6Bs8C_YuyXoY.json")),
            clock: { Date(timeIntervalSince1970: TimeInterval(iat)) })
        await #expect(throws: IdentityTokenError.unknownKeyID("eXaunmL")) { try await other.verify(body: real.body) }
        // Not the {"payload": …} envelope.
        await #expect(throws: IdentityTokenError.self) { try await real.verifier().verify(body: Array(real.token.utf8)) }
        await #expect(throws: IdentityTokenError.self) { try await real.verifier().verify(body: VerifierSupport.json(["signedPayload": real.token])) }
        // An identity-token verifier does not take a notification for an identity token.
        let asIdentity = IdentityTokenVerifier(
            environment: .production, audiences: [real.entry.claims.aud], keys: real.keys, clock: { Date(timeIntervalSince1970: TimeInterval(iat)) })
        await #expect(throws: IdentityTokenError.self) { try await asIdentity.verify(real.token) }
    }

    @Test("the real notification with any single character changed is refused, never accepted")
    func notificationTampered() async throws {
        let real = try RealNotification()
        let verifier = real.verifier()
        _ = try await verifier.verify(payload: real.token)
        let outcome = await Self.mutate(real.token) { mutated in
            await VerifierSupport.failure { try await verifier.verify(body: VerifierSupport.json(["payload": mutated])) }
        }
        #expect(outcome.tried >= 2 * (real.token.utf8.count - 2))
        #expect(outcome.accepted.isEmpty, "accepted mutations: \(outcome.accepted.prefix(5))")
        #expect(outcome.foreignErrors.isEmpty, "non-IdentityTokenError errors: \(outcome.foreignErrors.prefix(3))")
        #expect(outcome.paddingOnlyTried == 1)
    }

    @Test(
        "the real notification whose signature's last character differs only in its unused padding bits is refused"
    )
    func notificationNonCanonicalSignature() async throws {
        let real = try RealNotification()
        let mutated = Self.paddingBitsFlipped(real.token)
        #expect(mutated != real.token)
        await #expect(throws: IdentityTokenError.invalidSignature) { try await real.verifier().verify(payload: mutated) }
    }
}
