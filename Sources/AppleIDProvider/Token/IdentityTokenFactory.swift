import AppleIDProtocol
import Foundation

/// Builds and signs id_tokens with Apple's claims (spec §9).
struct IdentityTokenFactory: Sendable {
    enum Kind {
        /// From an authorization (front channel or code exchange): `nonce`, `nonce_supported`,
        /// `auth_time`, `real_user_status`, and `c_hash` / `at_hash` for what travels with it.
        case authorization(nonce: String?, code: String?, accessToken: String?)
        /// From the refresh grant: no `nonce`, `auth_time` or `nonce_supported` (spec §4.2).
        case refresh(accessToken: String)
    }

    let signer: TokenSigner
    let configuration: ProviderConfiguration

    /// - Parameter defect: what development mode's fault switch spoils in this id_token (issue 20), if anything.
    func make(
        for grant: Grant, client: RegisteredClient?, now: Date, kind: Kind, defect: (any IdentityTokenDefect)? = nil
    ) throws -> String {
        var claims = claims(for: grant, client: client, now: now, kind: kind)
        guard let defect else { return try signer.sign(claims) }
        defect.corrupt(&claims)
        return try signer.sign(claims, as: defect.signature)
    }

    private func claims(for grant: Grant, client: RegisteredClient?, now: Date, kind: Kind) -> IdentityTokenClaims {
        let quirks = client?.quirks ?? ClientQuirks()
        let iat = Int(now.timeIntervalSince1970)
        var claims = IdentityTokenClaims(
            issuer: quirks.issuer ?? configuration.issuer, audience: grant.clientID.rawValue,
            expiresAt: iat + (quirks.idTokenLifetime ?? configuration.idTokenLifetime), issuedAt: iat, subject: grant.subject)
        if let organizationID = grant.organizationID {
            // A Managed Apple ID: the organization's address, when it has one, never a relay address
            // and never verified by Apple; `org_id`, no `is_private_email` (spec §21 items 4 to 6).
            claims.organizationID = organizationID.uuidString.lowercased()
            if grant.scopes.contains(.email) {
                claims.email = grant.email
                claims.emailVerified = BooleanClaim(false, style: quirks.managedEmailVerifiedStyle ?? .string)
            }
        } else if let email = grant.email {
            let style = quirks.resolvedBooleanStyle(serverAsOf: configuration.appleAsOf)
            claims.email = email
            claims.emailVerified = BooleanClaim(true, style: style)
            if grant.isPrivateEmail { claims.isPrivateEmail = BooleanClaim(true, style: style) }
        }
        if let transferSubject = grant.transferSubject, let end = grant.transferWindowEndsAt, now < end {
            claims.transferSubject = transferSubject
        }
        switch kind {
        case .authorization(let nonce, let code, let accessToken):
            claims.nonce = nonce
            claims.codeHash = code.map(TokenHash.of)
            claims.accessTokenHash = accessToken.map(TokenHash.of)
            claims.authTime = Int(grant.authTime.timeIntervalSince1970)
            claims.nonceSupported = true
            claims.realUserStatus = grant.realUserStatus.rawValue
        case .refresh(let accessToken):
            claims.accessTokenHash = TokenHash.of(accessToken)
        }
        return claims
    }
}
