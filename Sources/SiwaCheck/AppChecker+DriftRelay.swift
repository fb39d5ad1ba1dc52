import Foundation

extension AppChecker {
    /// The day Apple announced relay addresses under `private.icloud.com` (`AppleDatedChange.privateICloudRelay`).
    static let firstDayOfPrivateICloudRelay = "2026-06-16"

    /// 2026-06-16: new Hide My Email addresses may end in `@private.icloud.com`. A new Apple ID's first
    /// authorization, hiding its e-mail, is approved while the client speaks as of that day: its relay
    /// address is under the new domain. The app must sign it in as any relay address (nothing to link by e-mail, the
    /// address kept as given): the probe answers, and shows the address when it shows e-mails at all.
    /// Apple sends such addresses today: refusing one is required.
    func relayDomainDrift(clientID: String) async throws -> CheckResult {
        let appleID = "relay-drift-\(UUID().uuidString.prefix(8).lowercased())@example.com"
        try await admin.createUser(appleID: appleID, password: "Relay-drift-" + UUID().uuidString)
        let attempt = try await SignInAttempt.start(in: newBrowser(), options: options)
        // The day only while the address is made: the callback meets today's traffic otherwise (the
        // discovery document of that day would name another issuer too, drift.issuer-flip's business).
        let fields = try await withDay(Self.firstDayOfPrivateICloudRelay, clientID: clientID) {
            Self.callbackFields(try await admin.approve(attempt.request, as: appleID, hideEmail: true))
        }
        let email = Self.email(ofUserField: fields)
        _ = try await attempt.callback(fields)
        let (signedIn, probe) = try await isSignedIn(attempt.browser)
        guard let email, email.hasSuffix("@private.icloud.com") else {
            return CheckResult(.driftRelayDomain, .notRun, "not run: the first sign-in brought no relay address (the app asks for no e-mail)")
        }
        guard signedIn else {
            return CheckClassRules.drift(
                .driftRelayDomain,
                failedToday: "a first sign-in with the relay address \(email) (private.icloud.com, Apple's since 2026-06-16) did not sign in")
        }
        let kept = probe.contains(email) ? ", and the probe shows the address as given" : ""
        return CheckResult(.driftRelayDomain, .passed, "a first sign-in with the relay address \(email) (private.icloud.com) signed in\(kept)")
    }

    /// The e-mail of the callback's `user` field (a first authorization's JSON).
    static func email(ofUserField fields: [(String, String)]) -> String? {
        struct User: Decodable { var email: String? }
        guard let user = fields.first(where: { $0.0 == "user" })?.1 else { return nil }
        return (try? JSONDecoder().decode(User.self, from: Data(user.utf8)))?.email
    }
}
