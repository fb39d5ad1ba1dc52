import Foundation

extension AppChecker {
    static let deletionChecks = CheckID.allCases.filter { $0.rawValue.hasPrefix("delete.") }

    /// TN3194: after the app deleted the account and revoked its token, the next sign-in of the same
    /// Apple ID is a first authorization again (the `user` field with name and e-mail, the same `sub`
    /// and e-mail). The app must create a working account from it: signed in, the probe answering.
    func checkSignInAfterDeletion(revoke: CheckResult) async -> CheckResult {
        progress(CheckID.deleteSignInAgain.rawValue)
        guard revoke.outcome == .passed else { return .notRun(.deleteSignInAgain, because: .deleteRevoke) }
        do {
            let (attempt, fields) = try await approvedAttempt(as: options.victim)
            guard let user = fields.first(where: { $0.0 == "user" })?.1 else {
                return CheckResult(
                    .deleteSignInAgain, .notRun, "not run: after the revocation the server sent no user field, so the sign-in was not a first one")
            }
            let page = try await attempt.callback(fields)
            guard try await isSignedIn(attempt.browser).0 else {
                return CheckResult(
                    .deleteSignInAgain, .failed,
                    "after the account was deleted and revoked, the next sign-in (a first one again, user \(user)) did not sign in (answered \(page.status)): the app fails on an Apple ID it deleted, e.g. on its kept e-mail"
                )
            }
            return CheckResult(
                .deleteSignInAgain, .passed, "after the deletion, the first sign-in again (with the user field) made a working account")
        } catch {
            return CheckResult(.deleteSignInAgain, .failed, "the check could not complete: \(error)")
        }
    }
}
