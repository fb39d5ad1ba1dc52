import AppleIDOrganizations
import AppleIDProtocol
import AppleIDProvider
import Foundation

/// Managed Apple IDs ("Sign in with Apple at Work & School"): an organization and its accounts, made
/// through the engine's operations, so a test sees what a school's students do to an app.
///
/// ```swift
/// let school = try await apple.createOrganization(name: "Cupertino High")
/// let student = try await apple.createManagedUser(username: "sam@appleid.cupertino.edu", in: school)
/// let result = try await apple.signIn(as: student.username, with: siwa)
/// #expect(result.identity.email == nil)
/// #expect(result.identity.organizationID == school)
/// ```
extension AppleIDEmulator {
    /// A Managed Apple ID as the test made it.
    public struct ManagedUser: Sendable, Hashable {
        /// What signs in (``signIn(as:with:choices:scopes:)`` takes it): may be a non-mailbox address.
        public var username: String
        public var password: String
        public var firstName: String
        public var lastName: String
        /// The organization's address for the user; students often have none.
        public var email: String?
        /// The `org_id` of the user's id_tokens.
        public var organizationID: String
    }

    /// Creates an organization that allows every app (``disallowApp(in:)`` narrows it to none but the
    /// others); returns its `org_id`.
    public func createOrganization(name: String = "Emulated School", isSchool: Bool = true) async throws -> String {
        try await provider.organizations.add(name: name, kind: isSchool ? .school : .business).claimValue
    }

    /// Creates a Managed Apple ID of the organization.
    @discardableResult
    public func createManagedUser(
        username: String, in organizationID: String, password: String = "password", firstName: String = "Test", lastName: String = "Student",
        email: String? = nil
    ) async throws -> ManagedUser {
        let account = try await provider.organizations.addAccount(
            to: try organization(organizationID), username: username, password: password, firstName: firstName, lastName: lastName,
            email: email)
        return ManagedUser(
            username: account.appleID, password: password, firstName: firstName, lastName: lastName, email: email,
            organizationID: organizationID)
    }

    /// The organization stops allowing the emulated app: new sign-ins fail at once, and once the
    /// provider's withdrawal window has passed (``advanceClock(by:)``) the next
    /// ``deliveredNotifications()`` brings `consent-revoked` for each of its users.
    public func disallowApp(in organizationID: String) async throws {
        let id = try organization(organizationID)
        _ = try await provider.organizations.setAccessRule(.specificApps, in: id)
        _ = try await provider.organizations.disallow(ClientID(rawValue: bundleID), in: id)
    }

    /// The organization deactivates the user: the user can no longer sign in.
    public func deactivateManagedUser(_ username: String) async throws {
        guard let account = try await provider.lookUpAccount(appleID: username) else { throw EmulatorError.unknownAppleID(username) }
        _ = try await provider.organizations.setDeactivated(true, accountID: account.id)
    }

    private func organization(_ id: String) throws -> UUID {
        guard let uuid = UUID(uuidString: id) else { throw EmulatorError.unknownOrganization(id) }
        return uuid
    }
}
