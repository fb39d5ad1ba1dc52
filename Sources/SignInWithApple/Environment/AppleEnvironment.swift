/// Where Sign in with Apple lives: Apple's servers, or an Apple ID server of this project.
///
/// One value decides every endpoint the kit calls and every issuer it accepts; nothing else in the
/// kit names a host.
///
/// ```swift
/// let apple = AppleEnvironment.production
/// let local = AppleEnvironment.custom(baseURL: "http://127.0.0.1:8080")
/// ```
public struct AppleEnvironment: Sendable, Hashable {
    /// `https://appleid.apple.com`, or the base URL of an Apple ID server (no trailing slash).
    public let baseURL: String
    /// The `iss` values accepted in identity tokens and notifications; the first is the one the
    /// client secret's `aud` names.
    public let issuers: [String]

    /// Apple's production service.
    public static let production = AppleEnvironment(baseURL: "https://appleid.apple.com", issuers: ["https://appleid.apple.com"])

    /// An Apple ID server at `baseURL`. Its issuer is its own URL unless it was started with another
    /// (`siwa serve --issuer apple` issues Apple's).
    public static func custom(baseURL: String, issuers: [String]? = nil) -> AppleEnvironment {
        let trimmed = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
        return AppleEnvironment(baseURL: trimmed, issuers: issuers ?? [trimmed])
    }

    public init(baseURL: String, issuers: [String]) {
        precondition(!issuers.isEmpty, "an environment accepts at least one issuer")
        self.baseURL = baseURL
        self.issuers = issuers
    }

    public var authorizationEndpoint: String { baseURL + "/auth/authorize" }
    public var tokenEndpoint: String { baseURL + "/auth/token" }
    public var revocationEndpoint: String { baseURL + "/auth/revoke" }
    public var keysEndpoint: String { baseURL + "/auth/keys" }
    public var userMigrationInfoEndpoint: String { baseURL + "/auth/usermigrationinfo" }

    /// The `aud` of client secrets for this environment.
    public var clientSecretAudience: String { issuers[0] }
}

extension AppleEnvironment {
    /// Apple's production service, also accepting `https://account.apple.com` as `iss`. Apple's
    /// discovery document has named that issuer since 11 June 2025 while its tokens kept
    /// `https://appleid.apple.com`; libraries that take the issuer from discovery broke
    /// (nextauthjs/next-auth#13047, supabase/auth#2050). Opt in only if Apple's tokens start carrying
    /// it: ``production`` accepts exactly the issuer Apple's tokens carry today.
    public static let productionAcceptingAccountIssuer = AppleEnvironment(
        baseURL: "https://appleid.apple.com", issuers: ["https://appleid.apple.com", "https://account.apple.com"])
}
