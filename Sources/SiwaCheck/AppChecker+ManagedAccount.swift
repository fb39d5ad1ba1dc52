import AppleIDAdminAPI
import Foundation
import NIOHTTP1

extension AppChecker {
    /// Issue 22's rule: a Managed Apple ID (Work & School) may have no e-mail and `email_verified`
    /// `"false"`. The app must still sign it in. The organization is made to allow the app first.
    func managedAccount(clientID: String) async throws -> CheckResult {
        guard let managed = try await admin.managedAccountWithoutEmail(allowing: clientID, preferred: options.managedAppleID) else {
            return CheckResult(
                .trustManagedAccount, .notRun, "not run: the server has no active Managed Apple ID without e-mail (siwa orgs adds one)")
        }
        let (attempt, fields) = try await approvedAttempt(as: managed)
        let page = try await attempt.callback(fields)
        guard try await isSignedIn(attempt.browser).0 else {
            return CheckResult(
                .trustManagedAccount, .failed,
                "the app refused \(managed), a Managed Apple ID with no e-mail and email_verified \"false\" (answered \(page.status)): it refuses Work & School accounts"
            )
        }
        return CheckResult(.trustManagedAccount, .passed, "signed in \(managed): no e-mail, email_verified \"false\", an org_id")
    }
}

extension ServerAdmin {
    /// The username of an active Managed Apple ID without e-mail (`preferred` when given), after its
    /// organization was made to allow `clientID`'s app group if it allows only specific apps.
    func managedAccountWithoutEmail(allowing clientID: String, preferred: String?) async throws -> String? {
        for listed in try Self.decode(OrganizationList.self, try await exchange(.GET, "/admin/orgs", nil)).organizations {
            let organization = try Self.decode(OrganizationView.self, try await exchange(.GET, "/admin/orgs/\(listed.id)", nil))
            let member = (organization.members ?? []).first { member in
                member.state == "active" && (preferred.map { $0.lowercased() == member.username.lowercased() } ?? (member.email ?? "").isEmpty)
            }
            guard let member else { continue }
            let group = try Self.decode(ClientView.self, try await exchange(.GET, "/admin/clients/\(Self.escape(clientID))", nil)).groupID
            if organization.accessRule == "specific-apps" && !organization.allowedApps.contains(group) {
                _ = try await send(.POST, "/admin/orgs/\(organization.id)/allowed-apps", AppOrder(appID: group))
            }
            return member.username
        }
        return nil
    }
}
