import AppleIDProtocol
import AppleIDProvider
import AppleIDRelay
import AppleIDServer
import Crypto
import Foundation
import Hummingbird
import Logging
import SignInWithApple

/// An Apple ID server for tests: in memory, on a free port of 127.0.0.1, with a team, an app group
/// (App ID and Services ID), a Sign in with Apple key and Apple IDs. It completes sign-in and consent
/// as a given user without a browser and hands back ready-made kit configuration.
///
/// ```swift
/// try await withAppleIDEmulator { apple in
///     let siwa = try apple.makeClient()
///     let result = try await apple.signIn(as: apple.defaultUser.appleID, with: siwa)
/// }
/// ```
public struct AppleIDEmulator: Sendable {
    public struct User: Sendable, Hashable {
        public var appleID: String
        public var password: String
        public var firstName: String
        public var lastName: String
        public var email: String
    }

    public let baseURL: String
    /// The engine behind the emulator: tests act through the emulator's methods, in Apple's words.
    let provider: AppleIDProvider
    /// The emulated private relay (``mailbox(for:)``), over the engine's memory storage.
    package let relay: MailRelay
    public let teamID: String
    public let bundleID: String
    public let servicesID: String
    public let redirectURI: String
    public let credentials: AppleCredentials
    public let defaultUser: User
    public let adminToken: String
    /// The server's clock (see ``advanceClock(by:)``).
    public let clock: any AdjustableClock
    /// The refusals the server logged (``refusals``).
    let refusalLog: RefusalLog

    /// The kit's environment for this server.
    var environment: AppleEnvironment { .custom(baseURL: baseURL) }

    /// Kit configuration for the emulated Services ID, accepting the whole app group.
    public func clientConfiguration(scopes: [Scope] = [.name, .email]) -> SignInWithAppleClient.Configuration {
        .init(
            environment: environment, credentials: credentials, primaryAppID: bundleID,
            web: .init(servicesID: servicesID, redirectURI: redirectURI), scopes: scopes)
    }

    /// Creates another Apple ID.
    @discardableResult
    public func createUser(
        appleID: String, password: String = "password", firstName: String = "Test", lastName: String = "User", email: String? = nil,
        realUserStatus: RealUserStatus = .likelyReal
    ) async throws -> User {
        _ = try await provider.createAccount(
            appleID: appleID, password: password, firstName: firstName, lastName: lastName, email: email, realUserStatus: realUserStatus)
        return User(appleID: appleID.lowercased(), password: password, firstName: firstName, lastName: lastName, email: email ?? appleID)
    }

    /// Completes the authorization of `pending` as `appleID`, as if the user signed in and chose
    /// `choices` on the consent page (default: their own name, the real e-mail). Returns what the
    /// browser would deliver to the redirect URI.
    public func approve(_ pending: PendingAuthorization, as appleID: String, choices: ConsentChoices? = nil) async throws -> AuthorizationCallback {
        try await approve(authorizationURL: pending.url, as: appleID, choices: choices)
    }

    /// A native app's credential for the App ID: `nonce` as the app sends it (the SHA-256 of its raw nonce).
    public func nativeCredential(
        as appleID: String, scopes: [Scope] = [.name, .email], nonce: Nonce? = nil, choices: ConsentChoices? = nil
    ) async throws -> AuthorizationCallback {
        try callback(
            from: try await provider.authorizeNative(
                bundleID: ClientID(rawValue: bundleID), appleID: appleID, scopes: scopes, nonce: nonce?.transmittedValue, choices: choices))
    }

    /// Kit configuration for a backend of native apps only (no web sign-in).
    public func nativeClientConfiguration() -> SignInWithAppleClient.Configuration {
        .init(environment: environment, credentials: credentials, primaryAppID: bundleID, otherClientIDs: [servicesID])
    }

    func callback(from result: HeadlessAuthorization) throws -> AuthorizationCallback {
        switch result {
        case .answered(let answer):
            return AuthorizationCallback(
                code: answer.issued?.code, idToken: answer.issued?.idToken, state: answer.state, user: answer.issued?.user,
                error: answer.refusal?.code.rawValue)
        case .rejected(let error): throw EmulatorError.refused(error)
        case .unknownAppleID(let appleID): throw EmulatorError.unknownAppleID(appleID)
        }
    }

    /// How many ports ``withAppleIDEmulator(clock:keyFactory:logger:_:)`` tries before it gives up.
    static let startAttempts = 5

    public enum EmulatorError: Error, Sendable, Hashable {
        case notAnAuthorizationURL
        case refused(OAuthError)
        case unknownAppleID(String)
        case unknownOrganization(String)
        case didNotStart
        /// The app's start answered `status` (with `location`, if any) instead of a redirect to this
        /// emulator's `/auth/authorize`.
        case appDidNotRedirectToAuthorization(status: Int, location: String?)
        /// The app redirected the browser more than ten times in a row, from `location` last.
        case tooManyRedirects(location: String)
        /// The relay refused the message with this SMTP reply.
        case mailRefused(code: Int, text: String)
    }
}
