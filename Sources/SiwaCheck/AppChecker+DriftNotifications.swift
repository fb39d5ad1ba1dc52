extension AppChecker {
    /// The deletion event's spelling Apple's traffic and every library use (the server's default), and
    /// the one of Apple's current document (spec §10.4, §19 #1).
    static let deletionSpellings = (today: "account-delete", documented: "account-deleted")

    /// The drift checks of notifications: they need the app's endpoint and a probe to see a session end.
    func notificationDrift(_ check: CheckID, clientID: String) async throws -> CheckResult {
        guard let endpoint = options.notifications, !options.probe.isEmpty else {
            return CheckResult(check, .notRun, "not run: it needs --notifications and --probe")
        }
        return check == .driftDeletionSpelling
            ? try await deletionSpellingDrift(endpoint: endpoint, clientID: clientID)
            : try await redeliveryDrift(endpoint: endpoint, clientID: clientID)
    }

    /// A signed-in browser of the victim, or `nil` when the app signs no one in any more.
    func signedInBrowserIfAny() async throws -> SimulatedBrowser? {
        do { return try await signedInBrowser() } catch is NotSignedIn { return nil }
    }

    /// The account deletion in each spelling, each to a signed-in victim: the session must end (the
    /// account is gone). Failing on `account-delete`, today's traffic, is required.
    func deletionSpellingDrift(endpoint: String, clientID: String) async throws -> CheckResult {
        var kept: [String: Int] = [:]
        for spelling in [Self.deletionSpellings.today, Self.deletionSpellings.documented] {
            guard let browser = try await signedInBrowserIfAny() else {
                return CheckResult(.driftDeletionSpelling, .notRun, "not run: the victim's sign-in before the \(spelling) did not sign in")
            }
            let status = try await deliver(try await admin.notification(for: options.victim, clientID: clientID, event: spelling), to: endpoint)
            if try await isSignedIn(browser).0 { kept[spelling] = status }
        }
        if let status = kept[Self.deletionSpellings.today] {
            return CheckClassRules.drift(
                .driftDeletionSpelling,
                failedToday:
                    "an \(Self.deletionSpellings.today) for the signed-in user (answered \(status)) left the session signed in: the account was not deleted"
            )
        }
        if let status = kept[Self.deletionSpellings.documented] {
            return CheckResult(
                .driftDeletionSpelling, .failed,
                "an \(Self.deletionSpellings.documented) (the spelling of Apple's current document, answered \(status)) left the session signed in; \(Self.deletionSpellings.today) ended it"
            )
        }
        return CheckResult(.driftDeletionSpelling, .passed, "account-delete and account-deleted each ended the signed-in user's session")
    }

    /// A genuine `consent-revoked` delivered, then the same one again (the same `jti`), as Apple does
    /// after an answer other than 200 or a timeout: both must be answered 2xx, and the second must not
    /// end the session begun between them (one effect).
    func redeliveryDrift(endpoint: String, clientID: String) async throws -> CheckResult {
        guard let first = try await signedInBrowserIfAny() else {
            return CheckResult(.driftNotificationRedelivery, .notRun, "not run: the victim's sign-in did not sign in")
        }
        let notification = try await admin.notification(for: options.victim, clientID: clientID)
        let firstStatus = try await deliver(notification, to: endpoint)
        guard try await !isSignedIn(first).0 else {
            return CheckResult(
                .driftNotificationRedelivery, .notRun,
                "not run: the first delivery (answered \(firstStatus)) did not end the session (see notify.baseline)")
        }
        guard let second = try await signedInBrowserIfAny() else {
            return CheckResult(.driftNotificationRedelivery, .notRun, "not run: the sign-in after the first delivery did not sign in")
        }
        let secondStatus = try await deliver(notification, to: endpoint)
        let actedAgain = try await !isSignedIn(second).0
        let answers = "answered \(firstStatus), then \(secondStatus)"
        switch ((200..<300).contains(firstStatus) && (200..<300).contains(secondStatus), actedAgain) {
        case (true, false):
            return CheckResult(.driftNotificationRedelivery, .passed, "the same consent-revoked delivered twice was \(answers), and acted on once")
        case (false, false):
            return CheckResult(
                .driftNotificationRedelivery, .failed,
                "the same consent-revoked delivered twice (one jti) was \(answers): Apple delivers a notification answered otherwise than 200 again")
        case (_, true):
            return CheckResult(
                .driftNotificationRedelivery, .failed,
                "the same consent-revoked delivered twice (one jti, \(answers)) was acted on twice: the second ended a session begun after the first")
        }
    }
}
