import AppleIDProtocol
import Foundation

/// The user's side of an authorization: sign-in with Apple ID and password, the two-factor code,
/// consent on the first authorization, or "Continue" when already signed in and authorized.
/// Kept apart from the protocol checks; it only calls ``AuthorizationIssuer`` once approved.
public struct InteractionService: Sendable {
    /// What sign-in and consent read and write of the engine's store.
    typealias Store = InteractionStore & ReadModelStore & ConsentStore & OrganizationStore & SignInAttemptStore & RegistryStore
        & AccountStore & FlowRecordStore
    let store: any Store
    let issuer: AuthorizationIssuer
    let configuration: ProviderConfiguration
    let random: any RandomSource
    let clock: any ProviderClock
    /// Checks Managed Apple IDs' passwords (their organization's own sign-in, or the stored password).
    let managedSignIn: any ManagedSignInAuthenticator

    /// What the browser sees next.
    public enum Outcome: Sendable {
        /// Show this interaction's current stage (with an error message when a step failed).
        case show(Interaction, message: String?)
        /// Send this answer to the redirect URI; the interaction is over.
        case finished(AuthorizationResponse)
        /// The interaction is unknown, expired, from another browser, or has a bad CSRF token.
        case invalid(String)
    }

    /// Starts a sign-in for a validated request. A browser already signed in skips to consent or
    /// to the short "Continue" page.
    public func start(_ request: ValidatedAuthorization, browserBinding: String, session: BrowserSession?) async throws -> Interaction {
        let now = clock.now()
        var interaction = Interaction(
            id: random.hex(bytes: 16), request: request, browserBindingHash: OpaqueToken.hash(browserBinding),
            csrfToken: random.hex(bytes: 16), stage: .signIn, createdAt: now,
            expiresAt: now.addingTimeInterval(configuration.interactionLifetime))
        // Only a session of the sign-in pages: signing in at /account does not skip the password here.
        if let session, session.purpose == .signInPages, session.expiresAt > now, let account = try await store.activeAccount(id: session.accountID) {
            interaction.accountID = account.id
            interaction.authTime = session.authTime
            interaction.stage = try await stageAfterAuthentication(account: account, groupID: request.groupID)
        }
        try await store.save(interaction)
        return interaction
    }

    /// Loads the interaction for this browser and checks the CSRF token of a form post.
    public func load(id: String, browserBinding: String?, csrfToken: String?) async throws -> Interaction? {
        guard let interaction = try await store.interaction(id: id), interaction.expiresAt > clock.now(),
            let browserBinding, OpaqueToken.hash(browserBinding) == interaction.browserBindingHash
        else { return nil }
        if let csrfToken, !ConstantTime.equal(csrfToken, interaction.csrfToken) { return nil }
        return interaction
    }

    /// Checks the Apple ID and password. With two-factor on, the verification code comes next;
    /// with it off the browser is signed in at once (the new session's cookie value is returned).
    public func signIn(_ interaction: Interaction, appleID: String, password: String) async throws -> (Outcome, sessionCookie: String?) {
        guard interaction.stage == .signIn else { return (.show(interaction, message: nil), nil) }
        let account: AppleIDAccount
        let step: SignInStep<AppleIDAccount>
        do {
            step = try await accountForSignIn(appleID: appleID, password: password)
        } catch is ManagedSignInUnavailable {
            return (.show(interaction, message: ManagedSignInUnavailable.message), nil)
        }
        switch step {
        case .passed(let signedIn): account = signedIn
        case .incorrect: return (try await fail(interaction, message: "Your Apple ID or password was incorrect."), nil)
        case .locked(let until): return (.show(interaction, message: SignInLockPolicy.message(lockedUntil: until, now: clock.now())), nil)
        }
        var next = interaction
        next.accountID = account.id
        next.stage = .secondFactor
        guard !account.twoFactorEnabled else {
            try await store.save(next)
            return (.show(next, message: nil), nil)
        }
        return try await verifySecondFactor(next, code: nil)
    }

    /// Verifies the TOTP code; on success the browser is signed in (the new session's cookie value
    /// is returned alongside).
    public func verifySecondFactor(_ interaction: Interaction, code: String?) async throws -> (Outcome, sessionCookie: String?) {
        guard interaction.stage == .secondFactor, let accountID = interaction.accountID else {
            return (.show(interaction, message: nil), nil)
        }
        let signIn: BrowserSignIn
        switch try await signInBrowser(accountID: accountID, code: code, purpose: .signInPages) {
        case .passed(let passed): signIn = passed
        case .incorrect: return (try await fail(interaction, message: "Incorrect verification code."), nil)
        case .locked(let until): return (.show(interaction, message: SignInLockPolicy.message(lockedUntil: until, now: clock.now())), nil)
        }
        var next = interaction
        next.authTime = signIn.session.authTime
        next.failedAttempts = 0
        next.stage = try await stageAfterAuthentication(account: signIn.account, groupID: interaction.request.groupID)
        try await store.save(next)
        return (.show(next, message: nil), signIn.cookie)
    }

    /// Consent (first authorization) or "Continue" (later ones): issue the answer.
    ///
    /// Both are re-checked here, at approval, not only when the page was shown: an Apple ID deleted
    /// meanwhile approves nothing, and a consent that is gone (the app revoked its token, or the
    /// user stopped using the Apple ID with the app) sends the user back to the consent page. The
    /// short "Continue" page never decides what to share.
    public func approve(_ interaction: Interaction, choices: ConsentChoices?) async throws -> Outcome {
        guard interaction.stage == .consent || interaction.stage == .confirm, let accountID = interaction.accountID else {
            return .show(interaction, message: nil)
        }
        guard let account = try await store.activeAccount(id: accountID) else {
            try await store.deleteInteraction(id: interaction.id)
            return .invalid("This Apple ID is no longer available. Start signing in again from the app.")
        }
        let consentChoices: ConsentChoices?
        switch interaction.stage {
        case .consent:
            guard let choices else { return .show(interaction, message: nil) }
            consentChoices = choices
        default:
            consentChoices = nil
        }
        let now = clock.now()
        // Taken first, atomically: of two submissions of the page (even concurrent ones, both loaded
        // before either got here) only the one that gets the row back approves and issues a code.
        guard try await store.takeInteraction(id: interaction.id) != nil else {
            return .invalid("This sign-in has ended. Start signing in again from the app.")
        }
        do {
            return .finished(
                try await issuer.approve(
                    interaction.request, account: account, authTime: interaction.authTime ?? now, choices: consentChoices, now: now))
        } catch ConsentRequired.noConsent {
            var next = interaction
            next.stage = .consent
            try await store.save(next)
            return .show(next, message: "Choose again what to share with this app.")
        } catch ConsentRequired.accountDeleted {
            return .invalid("This Apple ID is no longer available. Start signing in again from the app.")
        }
    }

    /// The user pressed Cancel: `user_cancelled_authorize` goes back with `state` (spec §3.3).
    public func cancel(_ interaction: Interaction) async throws -> Outcome {
        try await store.deleteInteraction(id: interaction.id)
        let request = interaction.request
        return .finished(
            .error(
                .userCancelled, redirectURI: request.redirectURI, responseMode: request.responseMode, state: request.state,
                frameID: request.frameID))
    }

    private func stageAfterAuthentication(account: AppleIDAccount, groupID: ClientID) async throws -> Interaction.Stage {
        if try await store.organizationRefuses(account, groupID: groupID) { return .notAllowed }
        return try await store.consent(accountID: account.id, groupID: groupID) == nil ? .consent : .confirm
    }

    /// Counts the failure in the store (atomically, so concurrent guesses cannot go past the limit)
    /// and ends the interaction at the limit.
    private func fail(_ interaction: Interaction, message: String) async throws -> Outcome {
        guard let count = try await store.recordFailedAttempt(interactionID: interaction.id) else {
            return .invalid("This sign-in has ended. Start signing in again from the app.")
        }
        guard count < configuration.maximumFailedAttempts else {
            try await store.deleteInteraction(id: interaction.id)
            return .invalid("Too many failed attempts. Start signing in again from the app.")
        }
        var next = interaction
        next.failedAttempts = count
        return .show(next, message: message)
    }
}
