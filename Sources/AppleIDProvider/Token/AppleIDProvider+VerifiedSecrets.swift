import AppleIDProtocol

extension AppleIDProvider {
    /// Forgets the client secrets verified with the key (the console revoked it): the next secret it
    /// signed is checked again, and refused.
    package func forgetVerifiedSecrets(keyID: KeyID) { authenticator.cache.forget(keyID: keyID) }
}
