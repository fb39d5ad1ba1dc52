import AppleIDProtocol
import Foundation

/// Turns an approved authorization into its answer: a single-use code bound to the request, an
/// id_token when asked, and on the first authorization the `user` JSON (spec §3.3).
struct AuthorizationIssuer: Sendable {
    let store: any RegistryStore & ConsentStore & GrantStore & OrganizationStore & TransferStore
    let identities: TeamIdentities
    let idTokens: IdentityTokenFactory
    let random: any RandomSource
    let configuration: ProviderConfiguration

    /// Records consent on a first authorization (`choices` then required: without them it throws
    /// ``ConsentRequired`` and decides nothing), issues the grant and code.
    func approve(
        _ request: ValidatedAuthorization, account: AppleIDAccount, authTime: Date, choices: ConsentChoices?, now: Date
    ) async throws -> AuthorizationResponse {
        guard account.canSignIn else { throw ConsentRequired.accountDeleted }
        // Apple's only error for the redirect (spec §3.3): the app learns no more than that.
        if try await store.organizationRefuses(account, groupID: request.groupID) {
            return .error(
                .userCancelled, redirectURI: request.redirectURI, responseMode: request.responseMode, state: request.state,
                frameID: request.frameID)
        }
        var identity = try await identities.identity(accountID: account.id, teamID: request.teamID)
        var user: AuthorizedUser?
        let consent: Consent
        var newConsent: Consent?
        var newIdentity: TeamIdentity?
        if let existing = try await store.consent(accountID: account.id, groupID: request.groupID) {
            consent = existing
        } else {
            // What to share is the user's decision, made on the consent page (or given explicitly by
            // headless mode): it is never defaulted here.
            guard var choices = choices?.sanitized else { throw ConsentRequired.noConsent }
            // At Work & School the organization sets the name and there is no Hide My Email (spec §21 item 3).
            if account.managed != nil { choices = .headlessDefault(for: account) }
            var email: String?
            if request.asksForEmail {
                if let managed = account.managed {
                    email = managed.organizationEmail
                } else if choices.hideEmail {
                    let clientDay = try await store.client(request.clientID)?.quirks.appleAsOf
                    let assigned = try await identities.identityAssigningRelayAddress(
                        accountID: account.id, teamID: request.teamID, domain: identities.relayDomain(forClientAsOf: clientDay))
                    identity = assigned.identity
                    if assigned.isNew { newIdentity = assigned.identity }
                    email = identity.relayAddress
                } else {
                    email = choices.sharedEmail.flatMap { account.emails.containsExactly($0) ? $0 : nil } ?? account.email
                }
            }
            consent = Consent(
                accountID: account.id, groupID: request.groupID, grantedAt: now, scopes: request.scopes, email: email,
                isPrivateEmail: request.asksForEmail && choices.hideEmail && account.managed == nil)
            newConsent = consent
            if request.asksForName || request.asksForEmail {
                user = AuthorizedUser(
                    name: request.asksForName ? .init(firstName: choices.firstName, lastName: choices.lastName) : nil,
                    email: email)
            }
        }
        var grant = Grant(
            id: random.hex(bytes: 16), accountID: account.id, teamID: request.teamID, groupID: request.groupID,
            clientID: request.clientID, subject: identity.subject, scopes: consent.scopes, email: consent.email,
            isPrivateEmail: consent.isPrivateEmail, realUserStatus: account.realUserStatus, authTime: authTime, createdAt: now,
            organizationID: account.managed?.organizationID)
        // The organization may have changed the address since the first authorization; `sub` stays.
        if let managed = account.managed { grant.email = consent.scopes.contains(.email) ? managed.organizationEmail : nil }
        if let (subject, windowEnd) = try await transferSubject(accountID: account.id, groupID: request.groupID, teamID: request.teamID, now: now) {
            (grant.transferSubject, grant.transferWindowEndsAt) = (subject, windowEnd)
        }
        let code = OpaqueToken.make(.code, random: random)
        let codeRecord = AuthorizationCodeRecord(
            codeHash: OpaqueToken.hash(code), grantID: grant.id, clientID: request.clientID,
            redirectURI: request.isNative ? nil : request.redirectURI, codeChallenge: request.codeChallenge, nonce: request.nonce,
            expiresAt: now.addingTimeInterval(configuration.codeLifetime))
        // One transaction: the consent, the relay address, the grant and the code, or none of them.
        try await store.save(Approval(consent: newConsent, identity: newIdentity, grant: grant, code: codeRecord))

        var idToken: String?
        if request.includesIDToken {
            let client = try await store.client(request.clientID)
            idToken = try idTokens.make(
                for: grant, client: client, now: now, kind: .authorization(nonce: request.nonce, code: code, accessToken: nil))
        }
        let issued = IssuedAuthorization(
            code: code, idToken: idToken, user: user, subject: grant.subject, realUserStatus: grant.realUserStatus)
        return AuthorizationResponse(
            redirectURI: request.redirectURI, responseMode: request.responseMode, outcome: .authorized(issued), state: request.state,
            frameID: request.frameID)
    }

    /// The migrated user's transfer identifier while the group's latest transfer to `teamID` is in
    /// its 60-day window.
    private func transferSubject(accountID: String, groupID: ClientID, teamID: TeamID, now: Date) async throws -> (Subject, Date)? {
        guard let transfer = try await store.transfers(groupID: groupID).first, transfer.toTeamID == teamID, transfer.isOpen(at: now),
            let migrated = try await store.transferSubject(accountID: accountID, fromTeamID: transfer.fromTeamID, toTeamID: teamID)
        else { return nil }
        return (migrated.subject, transfer.windowEndsAt)
    }
}

/// An approval that needs the consent page first: there is no consent for the app group (it was
/// revoked after the page was shown) and no choices were made. Or the Apple ID was deleted (or its
/// organization deactivated it).
public enum ConsentRequired: Error, Sendable {
    case noConsent
    case accountDeleted
}
