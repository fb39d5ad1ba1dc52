import AppleIDProvider
import Foundation

extension Organizations {
    /// Hands the organization's password step to its identity provider at `url` (`nil`: back to the
    /// server's own password); see ``ManagedSignInAuthenticator``. Two-factor stays as it is.
    public func setFederation(url: String?, in id: UUID) async throws -> Organization {
        let url = try url.map(Self.federationURL)
        return try await change(id) { $0.federationURL = url }
    }

    /// Passwords travel to this URL: it is `https`, or `http` to a loopback host only (an IdP on
    /// the same machine, in development), with no credentials or fragment of its own.
    package static func federationURL(_ text: String) throws -> String {
        let invalid = OrganizationError.invalid("a federation URL is https://host/path (http only to 127.0.0.1, ::1 or localhost)")
        guard let url = URLComponents(string: text), let host = url.host, !host.isEmpty, url.user == nil, url.password == nil,
            url.fragment == nil
        else { throw invalid }
        switch url.scheme?.lowercased() {
        case "https": return text
        case "http" where ["127.0.0.1", "::1", "[::1]", "localhost"].contains(host.lowercased()): return text
        default: throw invalid
        }
    }
}
