import Foundation
import SignInWithApple

/// How Juice runs: where it listens, its data, which Apple it talks to, and the button's look.
public struct JuiceConfiguration: Sendable {
    public var host: String
    public var port: Int
    /// The URL browsers use to reach Juice (no trailing slash); the redirect URI hangs off it.
    public var baseURL: String
    /// The kit's configuration: the local Apple ID server or the real Apple.
    public var signInWithApple: SignInWithAppleClient.Configuration
    public var buttonStyle: AppleButtonStyle
    public var sessionLifetime: TimeInterval
    public var passwordHasher: PasswordHasher
    /// Where order confirmations are sent; `nil` sends none.
    public var orderMail: OrderMailSettings?

    public init(
        host: String = "127.0.0.1", port: Int = 8081, baseURL: String? = nil, signInWithApple: SignInWithAppleClient.Configuration,
        buttonStyle: AppleButtonStyle = .black, sessionLifetime: TimeInterval = 30 * 24 * 3600, passwordHasher: PasswordHasher = .init(),
        orderMail: OrderMailSettings? = nil
    ) {
        self.host = host
        self.port = port
        self.baseURL = Self.trimmed(baseURL ?? "http://\(host):\(port)")
        self.signInWithApple = signInWithApple
        self.buttonStyle = buttonStyle
        self.sessionLifetime = sessionLifetime
        self.passwordHasher = passwordHasher
        self.orderMail = orderMail
    }

    /// Juice's Sign in with Apple callback for a base URL.
    public static func redirectURI(baseURL: String) -> String { trimmed(baseURL) + "/auth/apple/callback" }

    /// Juice's notification endpoint for a base URL.
    public static func notificationURL(baseURL: String) -> String { trimmed(baseURL) + "/auth/apple/notifications" }

    private static func trimmed(_ url: String) -> String { url.hasSuffix("/") ? String(url.dropLast()) : url }
}
