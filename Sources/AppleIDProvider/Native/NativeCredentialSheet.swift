import AppleIDProtocol

/// The credential the user picks on the sheet: `apple-id`, `password` (the first password offered)
/// or `password:USER`.
public enum CredentialPick: Sendable, Hashable {
    case appleID
    case password(user: String?)

    /// `apple-id`, `password` or `password:USER`; nil for anything else.
    public init?(_ text: String) {
        if WireMatch.exact(text, NativeCredentialProvider.appleID.rawValue) {
            self = .appleID
        } else if WireMatch.exact(text, NativeCredentialProvider.password.rawValue) {
            self = .password(user: nil)
        } else if text.hasPrefix("password:"), text.count > "password:".count {
            self = .password(user: String(text.dropFirst("password:".count)))
        } else {
            return nil
        }
    }

    func matches(_ offered: OfferedCredential) -> Bool {
        switch self {
        case .appleID: offered.type == .appleID
        case .password(let user): offered.type == .password && (user == nil || WireMatch.exact(offered.user, user))
        }
    }
}

/// What an app asks the device for at launch (`performRequests` / `performExistingAccountSetupFlows`),
/// and what the user does with the sheet.
public struct NativeCredentialRequest: Sendable, Hashable {
    public var bundleID: ClientID
    /// The Apple ID the device is signed in with.
    public var appleID: String
    public var providers: Set<NativeCredentialProvider>
    /// `preferImmediatelyAvailableCredentials`: only credentials the device has, never an Apple ID sign-up.
    public var existingOnly: Bool
    /// The user's choice; nil takes the sheet's first choice (see ``AppleIDProvider/presentNativeSheet(_:)``).
    public var pick: CredentialPick?
    public var scopes: [Scope]
    /// The nonce as the app sends it (the SHA-256 of its raw nonce).
    public var nonce: String?
    public var overrides: ConsentOverrides
    /// The user dismisses the sheet.
    public var userCancels: Bool

    public init(
        bundleID: ClientID, appleID: String, providers: Set<NativeCredentialProvider> = [.appleID], existingOnly: Bool = false,
        pick: CredentialPick? = nil, scopes: [Scope] = [], nonce: String? = nil, overrides: ConsentOverrides = ConsentOverrides(),
        userCancels: Bool = false
    ) {
        self.bundleID = bundleID
        self.appleID = appleID
        self.providers = providers
        self.existingOnly = existingOnly
        self.pick = pick
        self.scopes = scopes
        self.nonce = nonce
        self.overrides = overrides
        self.userCancels = userCancels
    }
}

/// The device's answer: what the sheet listed, and the credential the app receives.
public struct NativeCredentialSheet: Sendable {
    public enum Credential: Sendable {
        /// `ASAuthorizationAppleIDCredential` (or why there is none: an unknown App ID or Apple ID).
        case appleID(HeadlessAuthorization)
        /// `ASPasswordCredential`.
        case password(KeychainPassword)
        /// `ASAuthorizationError.canceled`.
        case canceled(Cancellation)
        /// Another `ASAuthorizationError`: passkey account creation declined (iOS 26).
        case declined(NativeDecline)
    }

    /// Why the app gets `ASAuthorizationError.canceled`.
    public enum Cancellation: String, Sendable, Hashable, CustomStringConvertible {
        case nothingToOffer
        case pickNotOffered
        case userCanceled

        public var description: String {
            switch self {
            case .nothingToOffer: "no existing credential for this user and app"
            case .pickNotOffered: "the sheet offers no credential that matches the pick"
            case .userCanceled: "the user canceled the sheet"
            }
        }
    }

    public var offered: [OfferedCredential]
    public var credential: Credential
}
