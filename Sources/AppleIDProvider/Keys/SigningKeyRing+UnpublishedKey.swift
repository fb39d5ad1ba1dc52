import RS256Signing
import _CryptoExtras

extension SigningKeyRing {
    /// The key development mode's `unpublished-key` fault signs with: never in `/auth/keys`, made by the
    /// ring's key factory and loaded by the ring's own signer (the one library that signs RS256 here).
    /// One per ring: a key nobody published is as unknown the second time. Made here only if the fault
    /// was armed without ``prepareUnpublishedKey()``.
    func unpublishedSigningKey() throws -> any RS256SigningKey {
        if let key = unpublishedKey.withLock({ $0 }) { return key }
        let made = try signer.loadKey(
            derRepresentation: Array(try _RSA.Signing.PrivateKey(pemRepresentation: try keyFactory.makePrivateKeyPEM()).derRepresentation))
        return unpublishedKey.withLock { kept in
            if let kept { return kept }  // made meanwhile by another request: one key per ring
            kept = made
            return made
        }
    }

    /// Makes the unpublished key now, unless made already, off Swift's pool (``OffThePool``): arming the fault pays
    /// for it (an RSA key: about 130 ms, longer in a debug build), not the token request it spoils, whose app
    /// may give up first, and no thread of Swift's pool waits meanwhile.
    package func prepareUnpublishedKey() async throws {
        guard unpublishedKey.withLock({ $0 == nil }) else { return }
        _ = try await OffThePool.run { try self.unpublishedSigningKey() }
    }
}
