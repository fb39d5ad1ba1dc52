import Foundation

extension AppChecker {
    /// Deletion (spec §6, §17.3): the signed-in victim deletes the account at `url`; the server must
    /// then have seen the app's /auth/revoke for that user's token: a new successful revoke in the
    /// client's request log, and the user's credential state for the client turned `revoked`.
    func checkDeletion(at url: String, clientID: String) async -> CheckResult {
        progress(CheckID.deleteRevoke.rawValue)
        do {
            let browser = try await signedInBrowser()
            let state = try await admin.credentialState(of: options.victim, clientID: clientID)
            guard state == "authorized" else {
                return CheckResult(.deleteRevoke, .notRun, "not run: after a sign-in the user's credential state was \(state), not authorized")
            }
            let logBefore = try await admin.requests(of: clientID)
            let page = try await deleteAccount(at: url, in: browser)
            let revokes = ServerAdmin.newEntries(try await admin.requests(of: clientID), since: logBefore).filter { $0.endpoint == "revoke" }
            let after = try await admin.credentialState(of: options.victim, clientID: clientID)
            if revokes.contains(where: { $0.outcome == "ok" }) && after == "revoked" {
                return CheckResult(.deleteRevoke, .passed, "deleting the account (answered \(page.status)) revoked the user's token at /auth/revoke")
            }
            if let refused = revokes.first, refused.outcome != "ok" {
                return CheckResult(.deleteRevoke, .failed, "the app's /auth/revoke was refused: \(refused.outcome) \(refused.reason)")
            }
            if revokes.contains(where: { $0.outcome == "ok" }) {
                let reason = "the app's /auth/revoke was answered, but the user's credential state for the app is \(after), not revoked"
                return CheckResult(.deleteRevoke, .failed, reason)
            }
            return CheckResult(
                .deleteRevoke, .failed, "deleting the account (answered \(page.status) at \(page.url)) never called /auth/revoke for the user's token"
            )
        } catch {
            return CheckResult(.deleteRevoke, .failed, "the check could not complete: \(error)")
        }
    }

    /// Opens `url`; a confirmation form there that posts back to it (hidden fields, a checkbox) is
    /// submitted as the user would, else the URL is POSTed. Redirects are followed.
    func deleteAccount(at url: String, in browser: SimulatedBrowser) async throws -> SimulatedBrowser.Page {
        let page = try await browser.get(url)
        // The form that posts back to the deletion URL: a page header's sign-out form is not it.
        let forms = StartForm.forms(in: page.body, acceptingCheckboxes: true).compactMap { form in
            URL(string: form.action, relativeTo: URL(string: page.url)).map { ($0.absoluteURL, form.fields) }
        }
        if (200..<300).contains(page.status), let (action, fields) = forms.first(where: { $0.0.path == URL(string: url)?.path }) {
            return try await browser.postForm(action.absoluteString, fields: fields, crossSite: false)
        }
        return try await browser.postForm(url, fields: [], crossSite: false)
    }
}
