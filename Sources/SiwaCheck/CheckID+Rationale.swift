/// Why a check exists: its class, the attack it stands for, and the document behind it (issue 37).
public struct CheckRationale: Sendable, Hashable {
    public var checkClass: CheckClass
    /// What an attacker (or Apple's own traffic) does to an app that fails the check, in one line.
    public var attack: String
    /// The spec section or Apple document that asks for the behaviour.
    public var source: String
}

extension CheckRationale {
    /// The class as the README's table gives it, with the condition of a rule that can lower it.
    public func classText(of check: CheckID) -> String {
        [checkClass.rawValue, CheckClassRules.condition(of: check)].compactMap { $0 }.joined(separator: " ")
    }
}

extension CheckID {
    public var checkClass: CheckClass { rationale.checkClass }

    // Apple's documents, by title (developer.apple.com).
    private static let requestDocument = "Apple: Request an authorization to the Sign in with Apple server"
    private static let verifyingDocument = "Apple: Verifying a user"
    private static let notificationsDocument = "Apple: Processing changes for Sign in with Apple accounts"
    private static let idTokenDocument = "Apple: id_token (Sign in with Apple JS), protocol spec §9.3"
    private static let deletionNote = "Apple: TN3194 Handling account deletions and revoking tokens for Sign in with Apple"

    public var rationale: CheckRationale {
        func required(_ attack: String, _ source: String) -> CheckRationale { CheckRationale(checkClass: .required, attack: attack, source: source) }
        func advice(_ attack: String, _ source: String) -> CheckRationale { CheckRationale(checkClass: .advice, attack: attack, source: source) }
        switch self {
        case .requestState:
            return required("login CSRF: the attacker's callback signs the victim in as the attacker", "RFC 6749 §10.12; RFC 9700 §4.7")
        case .requestNonce:
            return required(
                "an id_token of another sign-in replayed into this one; without PKCE, an injected code",
                "OpenID Connect Core 1.0 §3.1.2.1, §15.5.2; RFC 9700 §2.1.1, §4.5.3")
        case .requestFormPost:
            return required(
                "the code and id_token travel in the URL (history, logs, Referer); Apple refuses scopes without form_post",
                "\(Self.requestDocument) (response_mode); RFC 9700 §4.2, §4.3")
        case .requestRedirectURI:
            return required(
                "the code goes to a URL Apple does not know: Apple refuses the request", "RFC 6749 §3.1.2; RFC 9700 §4.1; \(Self.requestDocument)")
        case .requestPKCE:
            return advice("an injected code redeemed in the victim's sign-in (the nonce already stops it)", "RFC 7636; RFC 9700 §2.1.1")
        case .requestScopes: return advice("asks for more than Apple defines (name, email)", "\(Self.requestDocument) (scope)")
        case .callbackBaseline: return required("none: the genuine sign-in must work, every later check stands on it", Self.requestDocument)
        case .callbackReplay: return required("a captured callback, posted again, signs in a second browser", "RFC 6749 §4.1.2, §10.5")
        case .callbackState: return required("login CSRF with a callback that has no state or a forged one", "RFC 6749 §10.12; RFC 9700 §4.7")
        case .callbackStateBound: return required("login CSRF with the attacker's own valid state", "RFC 6749 §10.12; RFC 9700 §4.7.1")
        case .callbackFormIdentityToken:
            return required("an unsigned id_token in the form names any user", "OpenID Connect Core 1.0 §3.3.2.12, §3.1.3.7")
        case .callbackCodeInjection:
            return required(
                "the attacker's code in the victim's callback signs the victim in as the attacker", "RFC 9700 §4.5; OpenID Connect Core 1.0 §15.5.2")
        case .callbackErrorHandled:
            return required("an error callback (the user cancelled) signs in or breaks the page", "RFC 6749 §4.1.2.1; \(Self.requestDocument)")
        case .tokenUnpublishedKey: return required("an id_token signed by a key Apple never published", "\(Self.verifyingDocument); RFC 8725 §3.1")
        case .tokenAlgNone: return required("an unsigned id_token (alg none)", "RFC 8725 §2.1, §3.1; \(Self.verifyingDocument)")
        case .tokenHS256: return required("algorithm confusion: HS256 keyed with Apple's public key", "RFC 8725 §2.1, §3.1")
        case .tokenWrongAudience:
            return required("another app's id_token signs in here", "OpenID Connect Core 1.0 §3.1.3.7; RFC 7519 §4.1.3; \(Self.verifyingDocument)")
        case .tokenWrongIssuer: return required("an id_token of another issuer", "OpenID Connect Core 1.0 §3.1.3.7; \(Self.verifyingDocument)")
        case .tokenExpired:
            return required("an old id_token replayed", "OpenID Connect Core 1.0 §3.1.3.7; RFC 7519 §4.1.4; \(Self.verifyingDocument)")
        case .tokenFutureIssuedAt:
            return advice("a token issued in the future (a clock gone wrong)", "OpenID Connect Core 1.0 §3.1.3.7 (iat MAY be used)")
        case .tokenNonce:
            return required(
                "an id_token of another sign-in, or one without nonce, replayed; without PKCE, an injected code",
                "OpenID Connect Core 1.0 §3.1.3.7; \(Self.verifyingDocument); RFC 9700 §2.1.1")
        case .tokenHash:
            return advice(
                "an access token swapped inside the token response, which comes over the app's own TLS",
                "OpenID Connect Core 1.0 §3.1.3.8, §3.3.3.8 (MAY)")
        case .tokenSubjectMismatch:
            return advice(
                "the callback's id_token and the token response name different users (harmless when the callback's is ignored)",
                "OpenID Connect Core 1.0 §3.3.3.6")
        case .tokenInvalidGrant: return required("a refused code still signs in", "RFC 6749 §5.2")
        case .tokenServerError: return required("a failed token request still signs in", "RFC 6749 §5.1, §5.2")
        case .tokenTimeout: return advice("a hung token endpoint holds the app's workers", "defence in depth (no spec section)")
        case .trustUserEmail: return required("a forged e-mail in the unsigned user field becomes the account's", "\(Self.requestDocument) (user)")
        case .trustStringBooleans: return required("the app breaks on \"true\" strings, which Apple documents", Self.idTokenDocument)
        case .trustManagedAccount:
            return required("Work & School accounts (no e-mail, email_verified false) are locked out or linked by e-mail", Self.idTokenDocument)
        case .notifyBaseline: return required("a user who revoked consent stays signed in", Self.notificationsDocument)
        case .notifyUnknownKey: return required("a notification signed by anyone ends sessions", "\(Self.notificationsDocument); RFC 8725 §3.1")
        case .notifyAlgNone: return required("an unsigned notification", "RFC 8725 §2.1, §3.1")
        case .notifyWrongAudience: return required("another app's notification", "RFC 7519 §4.1.3; \(Self.notificationsDocument)")
        case .notifyExpired: return required("an old notification replayed", "RFC 7519 §4.1.4")
        case .notifyTampered: return required("a notification changed after signing", "RFC 7515 §5.2")
        case .notifyReplay: return required("the same notification acted on twice", "RFC 7519 §4.1.7")
        case .deleteRevoke:
            return required(
                "a deleted account's refresh token stays valid and its consent stays given",
                "Apple: Revoke tokens; App Review Guidelines 5.1.1(v); protocol spec §17.3")
        case .deleteSignInAgain:
            return required(
                "a user who deleted the account cannot sign up again: the new first sign-in fails on what the app kept (a unique e-mail)",
                "\(Self.deletionNote); protocol spec §6, §17.2")
        case .driftBooleanClaims:
            return advice(
                "Apple's 2024-02-07 change: email_verified and is_private_email were strings before, JSON booleans since",
                "protocol spec §9.3; siwa's dated changes (--apple-as-of)")
        case .driftIssuerFlip:
            return advice(
                "Apple's 2025-06-11 change: the discovery document's issuer became https://account.apple.com, the tokens kept https://appleid.apple.com; an app taking iss from discovery refuses everyone",
                "next-auth#13047, supabase/auth#2050, ory/kratos#4433; siwa's dated changes (--apple-as-of)")
        case .driftRelayDomain:
            return advice(
                "Apple's 2026-06-16 change: new relay addresses may end in @private.icloud.com; an app that knows relay addresses by privaterelay.appleid.com refuses or mislinks the new ones",
                "Apple: Communicating using the private email relay service; protocol spec §11, §19 #15")
        case .driftDeletionSpelling:
            return advice(
                "the account-deletion event is account-delete in Apple's older document and every library, account-deleted in its current one: an app that knows one keeps the other's accounts",
                "\(Self.notificationsDocument); protocol spec §10.4, §19 #1")
        case .driftNotificationRedelivery:
            return advice(
                "Apple sends a notification answered with anything but 200, or timed out, again: an app that answers a repeat with an error is sent it again, one that acts on it twice acts twice",
                "\(Self.notificationsDocument); Apple DTS, developer forums thread 809509; protocol spec §10.5")
        case .driftKeyRotation:
            return advice(
                "Apple signs with a new key: an app that never refetches /auth/keys refuses every sign-in",
                "\(Self.verifyingDocument); protocol spec §7")
        }
    }
}
