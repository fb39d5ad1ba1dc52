import Foundation

/// A Return URL that passed Apple's rules (spec §12).
public struct ReturnURL: Sendable, Hashable {
    public let value: String
    /// Allowed only because the server runs in development mode (`http://127.0.0.1`,
    /// `http://localhost`); Apple's portal refuses it.
    public let isDevelopmentOnly: Bool

    /// Checks `text` as the portal does: an absolute `https` URL whose host is a domain name, no IP
    /// address, no `localhost`, no fragment. In development mode a loopback host (`127.0.0.1`,
    /// `localhost`) is accepted over `http` or `https`, and marked development-only.
    public static func check(_ text: String, developmentMode: Bool) throws(ConsoleError) -> ReturnURL {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard !trimmed.isEmpty else { throw .invalid("Enter a Return URL.") }
        guard let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
            let host = components.host?.lowercased(), !host.isEmpty
        else { throw .invalid("\(trimmed) is not a valid URL. Enter an absolute URL such as https://example.com/callback.") }
        guard components.fragment == nil else { throw .invalid("\(trimmed): Return URLs cannot contain a fragment (#).") }
        guard components.user == nil, components.password == nil else {
            throw .invalid("\(trimmed): Return URLs cannot contain a user name or password.")
        }
        if isLoopback(host) {
            guard developmentMode else {
                throw .invalid("\(trimmed): localhost and IP addresses are not allowed. Use a domain name.")
            }
            guard scheme == "http" || scheme == "https" else { throw .invalid("\(trimmed): the URL must use http or https.") }
            return ReturnURL(value: trimmed, isDevelopmentOnly: true)
        }
        guard scheme == "https" else { throw .invalid("\(trimmed): Return URLs must use https.") }
        guard !isIPAddress(host) else { throw .invalid("\(trimmed): IP addresses are not allowed. Use a domain name.") }
        guard DomainName.isValid(host), host.contains(".") else {
            throw .invalid("\(trimmed): the host must be a domain name, such as example.com.")
        }
        return ReturnURL(value: trimmed, isDevelopmentOnly: false)
    }

    /// Whether a registered URL is one that only development mode allows.
    public static func isDevelopmentOnly(_ text: String) -> Bool {
        guard let host = URLComponents(string: text)?.host?.lowercased() else { return false }
        return isLoopback(host)
    }

    static func isLoopback(_ host: String) -> Bool { host == "localhost" || host == "127.0.0.1" }

    static func isIPAddress(_ host: String) -> Bool {
        if host.hasPrefix("[") || host.contains(":") { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { UInt8($0) != nil }
    }
}

/// Host names as the portal's "Domains and Subdomains" field takes them.
public enum DomainName {
    /// Letters, digits and hyphens in dot-separated labels of 1 to 63 characters, at most 253 in all,
    /// and not all digits (an IP address is not a domain name).
    static func isValid(_ name: String) -> Bool {
        guard !name.isEmpty, name.count <= 253, !ReturnURL.isIPAddress(name) else { return false }
        let labels = name.split(separator: ".", omittingEmptySubsequences: false)
        return labels.allSatisfy { label in
            (1...63).contains(label.count) && label.first != "-" && label.last != "-"
                && label.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") }
        }
    }

    /// Checks one entry of "Domains and Subdomains": a bare host name with a dot, no scheme or path,
    /// no IP address, no `localhost`. Returned lower-cased.
    public static func check(_ text: String) throws(ConsoleError) -> String {
        let name = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !name.contains("/"), !name.contains(":") else {
            throw .invalid("\(name): enter a domain name only, without https:// or a path.")
        }
        guard name != "localhost", !ReturnURL.isIPAddress(name) else {
            throw .invalid("\(name): localhost and IP addresses are not allowed. Use a domain name.")
        }
        guard isValid(name), name.contains(".") else { throw .invalid("\(name) is not a valid domain name.") }
        return name
    }
}
