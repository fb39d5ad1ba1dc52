import AppleIDAdminAPI
import Foundation

extension AppChecker {
    static let driftChecks = CheckID.allCases.filter { $0.rawValue.hasPrefix("drift.") }

    /// The drift checks: the app signed in with Apple's traffic before and after a change, dated
    /// (`--apple-as-of`'s table) or to come (a new signing key). Advice, unless the app fails on
    /// today's side (`CheckClassRules.drift`). `earlier` are the results so far: a side another check
    /// already signed in with is read, not signed in again. Run last, the key's rotation last of all: a
    /// rotated key stays rotated.
    func checkDrift(clientID: String, earlier: [CheckResult]) async -> [CheckResult] {
        var results: [CheckResult] = []
        for check in Self.driftChecks {
            progress(check.rawValue)
            do {
                switch check {
                case .driftBooleanClaims: results.append(booleanClaimsDrift(earlier: earlier))
                case .driftIssuerFlip: results.append(try await issuerFlipDrift(clientID: clientID))
                case .driftRelayDomain: results.append(try await relayDomainDrift(clientID: clientID))
                case .driftDeletionSpelling, .driftNotificationRedelivery:
                    results.append(try await notificationDrift(check, clientID: clientID))
                case .driftKeyRotation: results.append(try await keyRotationDrift())
                default: results.append(CheckResult(check, .notRun, "not run"))
                }
            } catch {
                results.append(CheckResult(check, .failed, "the check could not complete: \(error)"))
            }
        }
        return results
    }

    /// 2024-02-07: `email_verified` and `is_private_email` turned from strings into JSON booleans. Both
    /// sides were signed in already: before (strings) by `trust.string-booleans`, since (booleans,
    /// today's traffic) by `callback.baseline`.
    func booleanClaimsDrift(earlier: [CheckResult]) -> CheckResult {
        func outcome(_ check: CheckID) -> CheckResult.Outcome? { earlier.first { $0.check == check }?.outcome }
        guard let strings = outcome(.trustStringBooleans), strings != .notRun, outcome(.callbackBaseline) == .passed else {
            return CheckResult(.driftBooleanClaims, .notRun, "not run: trust.string-booleans or callback.baseline did not run")
        }
        if strings == .passed {
            return CheckResult(
                .driftBooleanClaims, .passed,
                "signed in with Apple's claims before 2024-02-07 (strings, trust.string-booleans) and since (booleans, callback.baseline)")
        }
        return CheckResult(
            .driftBooleanClaims, .failed,
            "with email_verified as \"true\" (Apple before 2024-02-07, trust.string-booleans) the sign-in failed; since, with booleans, it works")
    }

    /// A new signing key: the app signed in first (and may have cached the key set), then the server
    /// rotates until it signs with a key that was not published then, and the app signs in again.
    func keyRotationDrift() async throws -> CheckResult {
        guard try await signsIn() else {
            return CheckResult(.driftKeyRotation, .notRun, "not run: the sign-in before the rotation did not sign in")
        }
        let seen = Set(try await admin.keyRing().publishedKeyIDs)
        var ring = try await admin.rotateKeys()
        // The next key is published ahead of its use: an app may have cached it. Rotate past it.
        for _ in 0..<2 where seen.contains(ring.activeKeyID) { ring = try await admin.rotateKeys() }
        guard !seen.contains(ring.activeKeyID) else {
            return CheckResult(.driftKeyRotation, .notRun, "not run: the server's rotation did not bring a key the app could not have seen")
        }
        if try await signsIn() {
            return CheckResult(.driftKeyRotation, .passed, "after the signing key rotated to kid \(ring.activeKeyID), new to the app, it signed in")
        }
        // An app may refetch at most once per cooldown, and it may have refetched a moment ago.
        if options.keyRefetchWait > 0 {
            try await wait(options.keyRefetchWait)
            if try await signsIn() {
                let detail =
                    "after the signing key rotated to kid \(ring.activeKeyID), the app signed in \(Int(options.keyRefetchWait)) s later (a refetch cooldown)"
                return CheckResult(.driftKeyRotation, .passed, detail)
            }
        }
        let again = options.keyRefetchWait > 0 ? ", and again \(Int(options.keyRefetchWait)) s later" : ""
        return CheckResult(
            .driftKeyRotation, .failed,
            "after the signing key rotated to kid \(ring.activeKeyID), which was not in /auth/keys at the app's last sign-in, the sign-in failed\(again): the app keeps a key set it never refreshes"
        )
    }

    /// Whether a genuine sign-in of the victim, in a new browser, signs in.
    func signsIn() async throws -> Bool {
        let (attempt, fields) = try await approvedAttempt(as: options.victim)
        _ = try await attempt.callback(fields)
        return try await isSignedIn(attempt.browser).0
    }
}

extension ServerAdmin {
    /// The server's signing keys: the active one and those /auth/keys publishes.
    func keyRing() async throws -> KeyRingState { try Self.decode(KeyRingState.self, try await exchange(.GET, "/admin/keys", nil)) }

    /// Rotates the server's signing keys now (the next key becomes active, a new one is published).
    func rotateKeys() async throws -> KeyRingState { try Self.decode(KeyRingState.self, try await exchange(.POST, "/admin/keys/rotate", nil)) }
}
