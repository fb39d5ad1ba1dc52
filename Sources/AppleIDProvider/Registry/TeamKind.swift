/// Whether a developer team is one person or an organization: Apple's limits depend on it.
public enum TeamKind: String, Codable, Sendable, Hashable, CaseIterable {
    case individual
    case organization

    /// Website Return URLs per Services ID (spec §12: 10 for individuals, 100 for organizations).
    public var returnURLLimit: Int {
        switch self {
        case .individual: 10
        case .organization: 100
        }
    }

    /// Private-relay e-mail sources per team (spec §11: 32 for individuals, 100 for organizations).
    public var emailSourceLimit: Int {
        switch self {
        case .individual: 32
        case .organization: 100
        }
    }
}
