// The native side's words, here rather than in the engine: the admin API's answers
// (AppleIDAdminAPI) and the emulator show the same sheet with the same types.

/// The providers an app's authorization requests name: `ASAuthorizationAppleIDProvider`,
/// `ASAuthorizationPasswordProvider` and (iOS 26) `ASAuthorizationAccountCreationProvider`'s passkey
/// account creation request.
public enum NativeCredentialProvider: String, Sendable, Hashable, Codable, CaseIterable {
    case appleID = "apple-id"
    case password
    case passkeyAccountCreation = "passkey-account-creation"
}

/// One credential the device's sheet lists for the app.
public struct OfferedCredential: Sendable, Hashable, Codable {
    public var type: NativeCredentialProvider
    /// A saved password's user name; nil for the Apple ID credential.
    public var user: String?

    public init(type: NativeCredentialProvider, user: String? = nil) {
        self.type = type
        self.user = user
    }
}
