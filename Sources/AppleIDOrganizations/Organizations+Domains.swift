import AppleIDProvider
import Foundation

/// Where a Managed Apple ID may live: an organization proves its domains before it creates accounts
/// under them (spec §21 item 4: usernames such as `jappleseed@appleid.myschool.edu`).
extension Organizations {
    /// The verified domains, each a domain name by the console's own rule, lower-cased.
    package static func verifiedDomains(_ domains: [String]) throws -> [String] {
        try domains.map { domain in
            do {
                return try DomainName.check(domain)
            } catch {
                throw OrganizationError.invalid("verified domain \(error)")
            }
        }
    }

    /// Refuses an address (username or organization e-mail) outside the organization's verified
    /// domains: their own names or subdomains of them. An organization that verified no domain takes
    /// any address, so that a test can make one in a line.
    package static func checkAddress(_ address: String, of organization: Organization) throws {
        guard !organization.verifiedDomains.isEmpty else { return }
        let domain = address.split(separator: "@").last.map { $0.lowercased() } ?? ""
        let isUnder = organization.verifiedDomains.contains { domain == $0 || domain.hasSuffix("." + $0) }
        guard address.contains("@"), isUnder else {
            throw OrganizationError.invalid(
                "\(address) is outside \(organization.name)'s verified domains (\(organization.verifiedDomains.joined(separator: ", ")))")
        }
    }
}
