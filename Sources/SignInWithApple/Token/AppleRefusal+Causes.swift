import AppleIDProtocol

/// What a request was, as far as explaining its refusal goes.
enum TokenRequestKind: Sendable {
    case codeExchange(redirectURI: String?)
    case refresh
    case revocation
    case clientCredentials
    case userMigration
}

/// The facts a refusal is explained with: who asked, and the secret sent.
struct RefusalContext: Sendable {
    var request: TokenRequestKind
    var clientID: String
    var teamID: String
    var keyID: String
    var clientSecretReport: ClientSecretInspector.Report
}

extension AppleRefusal {
    /// Apple's refusal, explained from the request that caused it.
    init(code: OAuthErrorCode, errorDescription: String?, status: Int, context: RefusalContext) {
        switch code {
        case .invalidClient:
            self.init(
                code: code, errorDescription: errorDescription, status: status, likelyCauses: Self.invalidClientCauses(context),
                clientSecretReport: context.clientSecretReport)
        case .invalidGrant:
            self.init(
                code: code, errorDescription: errorDescription, status: status,
                likelyCauses: Self.invalidGrantCauses(errorDescription ?? "", context))
        default:
            self.init(code: code, errorDescription: errorDescription, status: status)
        }
    }

    /// The rules the secret breaks by the kit's own inspection, then what only Apple can check.
    static func invalidClientCauses(_ context: RefusalContext) -> [String] {
        let broken = context.clientSecretReport.failures.map { "the client secret's \($0.name) fails: \($0.explanation)" }
        let times = context.clientSecretReport.claims.flatMap { claims in
            claims.issuedAt.flatMap { iat in claims.expiresAt.map { exp in " (iat \(iat), exp \(exp))" } }
        }
        return broken + [
            "Key ID \(context.keyID) is not a Sign in with Apple key of team \(context.teamID), or it was revoked "
                + "(Certificates, Identifiers & Profiles → Keys)",
            "the private key is not the one of Key ID \(context.keyID): the .p8 file of another key signed the secret",
            "\(context.clientID) is not an App ID or Services ID of team \(context.teamID) with Sign in with Apple enabled",
            "this machine's clock is off, so Apple sees the secret as not yet valid or expired\(times ?? "")",
        ]
    }

    /// `invalid_grant`, read with the description Apple (or an Apple ID server) gave.
    static func invalidGrantCauses(_ description: String, _ context: RefusalContext) -> [String] {
        let singleUse =
            "the code expired or was already used: codes are single-use and live 5 minutes; exchange each code once, "
            + "as soon as the callback arrives"
        let otherClient =
            "the code was issued to another client than \(context.clientID): a native app's code is exchanged with "
            + "its bundle ID as client_id, a web sign-in's code with the Services ID"
        switch context.request {
        case .codeExchange(let redirectURI):
            if description.hasPrefix("client_id mismatch") { return [otherClient] }
            if description.hasPrefix("redirect_uri mismatch") {
                return [
                    "redirect_uri \(redirectURI ?? "(none)") is not exactly the one of the authorization request "
                        + "(scheme, host, path and trailing slash all count); a native app's code is exchanged without one"
                ]
            }
            if description.contains("already been used") {
                return ["the code was already exchanged: codes are single-use, and a second exchange revokes what the first issued"]
            }
            return [singleUse, otherClient, "the code_verifier is not the one whose challenge the authorization request carried (PKCE)"]
        case .refresh:
            return [
                "the refresh token was revoked: the user stopped using Sign in with Apple with the app, deleted their Apple ID, "
                    + "or the app revoked the token",
                "the refresh token was issued to another client than \(context.clientID)",
            ]
        case .revocation, .clientCredentials, .userMigration:
            return []
        }
    }
}
