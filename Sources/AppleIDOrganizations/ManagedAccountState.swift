import AppleIDProvider

/// The life of a Managed Apple ID as its organization sees it.
public enum ManagedAccountState: String, Codable, Sendable, Hashable, CaseIterable {
    case active
    case deactivated
    case deleted
}

extension AppleIDAccount {
    /// `nil` for a consumer Apple ID.
    public var managedState: ManagedAccountState? {
        guard let managed else { return nil }
        if deletedAt != nil { return .deleted }
        return managed.isDeactivated ? .deactivated : .active
    }
}
