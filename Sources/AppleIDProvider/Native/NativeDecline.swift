/// An `ASAuthorizationError` other than `canceled` that the device answers an app with, by its name
/// and code (the codes of AuthenticationServices, iOS 26).
public enum NativeDecline: Sendable, Hashable, CustomStringConvertible {
    /// Passkey account creation for someone who already has a Sign in with Apple account with the app:
    /// the system offers that account instead (`ASAuthorizationError.preferSignInWithApple`, iOS 26).
    case preferSignInWithApple
    /// Passkey account creation for someone with no account yet: a device shows the passkey sheet,
    /// which this server does not emulate (`ASAuthorizationError.notHandled`).
    case passkeySheetNotEmulated

    public var code: Int {
        switch self {
        case .preferSignInWithApple: 1009
        case .passkeySheetNotEmulated: 1003
        }
    }

    public var errorName: String {
        switch self {
        case .preferSignInWithApple: "ASAuthorizationError.preferSignInWithApple"
        case .passkeySheetNotEmulated: "ASAuthorizationError.notHandled"
        }
    }

    public var description: String {
        switch self {
        case .preferSignInWithApple:
            "the user has an existing Sign in with Apple account with this app and would prefer to use it instead of creating a passkey account"
        case .passkeySheetNotEmulated:
            "the user has no Sign in with Apple account with this app, so a device would show the passkey account creation sheet; this server does not create passkeys"
        }
    }
}
