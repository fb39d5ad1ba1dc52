import AppleIDProvider

extension AppleIDProvider {
    /// The organizations' administration in the storage the engine was started with: the memory store
    /// and the SQL stores keep it beside the engine's records, in the same database.
    var organizationAdminStore: any OrganizationAdminStore {
        get throws {
            guard let store = store as? any OrganizationAdminStore else { throw OrganizationStorageMissing() }
            return store
        }
    }
}

/// The storage keeps no organizations: its store does not implement ``OrganizationAdminStore``.
public struct OrganizationStorageMissing: Error, Sendable {}
