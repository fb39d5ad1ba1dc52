import AppleIDProtocol
import AppleIDProvider
import Foundation

/// What an organization's administrator does in Apple School Manager or Apple Business Manager:
/// organizations, their access rule, and their Managed Apple IDs (spec §21). The admin API, the CLI,
/// the console and the emulator call these. Accounts are the engine's: they are made and changed
/// through its operations.
public struct Organizations: Sendable {
    let provider: AppleIDProvider

    /// Creates an organization; its `org_id` is `id` (a declaration's) or a new random one.
    public func add(
        name: String, kind: Organization.Kind, verifiedDomains: [String] = [], accessRule: Organization.AccessRule = .allApps,
        allowedApps: [ClientID] = [], federationURL: String? = nil, id: UUID? = nil
    ) async throws -> Organization {
        let organization = Organization(
            id: id ?? UUID(uuid: Self.version4(provider.random.bytes(count: 16))), kind: kind, name: try Self.name(name),
            verifiedDomains: try Self.verifiedDomains(verifiedDomains), accessRule: accessRule, allowedApps: allowedApps,
            createdAt: provider.clock.now(), federationURL: try federationURL.map(Self.federationURL))
        try await provider.organizationAdminStore.save(organization, withdrawal: nil)
        return organization
    }

    /// Sets every setting of the organization at once (a declaration's), by the rules of ``add``;
    /// narrowing what it allows schedules the withdrawal as ``disallow(_:in:)`` does. The `id` and
    /// `createdAt` of `settings` are not read: an organization keeps both. Answers whether anything changed.
    public func update(_ id: UUID, to settings: Organization) async throws -> Bool {
        let name = try Self.name(settings.name)
        let domains = try Self.verifiedDomains(settings.verifiedDomains)
        let federationURL = try settings.federationURL.map(Self.federationURL)
        let before = try await organization(id: id)
        var after = before
        after.name = name
        after.kind = settings.kind
        after.verifiedDomains = domains
        after.accessRule = settings.accessRule
        after.allowedApps = settings.allowedApps
        after.federationURL = federationURL
        guard after != before else { return false }
        _ = try await change(id) { $0 = after }
        return true
    }

    private static func name(_ text: String) throws -> String {
        let name = text.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw OrganizationError.invalid("an organization needs a name") }
        return name
    }

    public func list() async throws -> [Organization] { try await provider.organizationAdminStore.organizations() }

    public func organization(id: UUID) async throws -> Organization {
        guard let organization = try await provider.organization(id: id) else { throw OrganizationError.unknownOrganization(id) }
        return organization
    }

    /// Puts the app on the allow list (and under ``Organization/AccessRule/specificApps`` it may be
    /// signed in to at once).
    public func allow(_ app: ClientID, in id: UUID) async throws -> Organization {
        try await change(id) { organization in
            if !organization.allowedApps.contains(app) { organization.allowedApps.append(app) }
        }
    }

    /// Takes the app off the allow list: new sign-ins fail at once, existing grants are revoked
    /// within ``ProviderConfiguration/appWithdrawalWindow`` (``revokeWithdrawnApps()``).
    public func disallow(_ app: ClientID, in id: UUID) async throws -> Organization {
        try await change(id) { $0.allowedApps.removeAll { $0 == app } }
    }

    public func setAccessRule(_ rule: Organization.AccessRule, in id: UUID) async throws -> Organization {
        try await change(id) { $0.accessRule = rule }
    }

    /// Saves the change; when the organization now allows less than before, schedules the revocation
    /// of what it no longer allows (in the same transaction).
    func change(_ id: UUID, _ edit: (inout Organization) -> Void) async throws -> Organization {
        let before = try await organization(id: id)
        var after = before
        edit(&after)
        let narrowed =
            after.accessRule == .specificApps && (before.accessRule == .allApps || !Set(before.allowedApps).isSubset(of: after.allowedApps))
        let withdrawal =
            narrowed
            ? PendingWithdrawal(organizationID: id, dueAt: provider.clock.now().addingTimeInterval(provider.configuration.appWithdrawalWindow))
            : nil
        try await provider.organizationAdminStore.save(after, withdrawal: withdrawal)
        return after
    }

    /// RFC 4122 version 4: random bits with the version and variant set.
    package static func version4(_ bytes: [UInt8]) -> uuid_t {
        var b = bytes
        b[6] = (b[6] & 0x0F) | 0x40
        b[8] = (b[8] & 0x3F) | 0x80
        return (b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15])
    }
}

public enum OrganizationError: Error, Sendable, Hashable, CustomStringConvertible {
    case unknownOrganization(UUID)
    case notManaged(String)
    case invalid(String)

    public var description: String {
        switch self {
        case .unknownOrganization(let id): "no organization \(id.uuidString.lowercased())"
        case .notManaged(let id): "Apple ID \(id) is not a Managed Apple ID"
        case .invalid(let reason): reason
        }
    }
}

extension AppleIDProvider {
    /// Organizations and their Managed Apple IDs.
    public var organizations: Organizations { Organizations(provider: self) }
}
