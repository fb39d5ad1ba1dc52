import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import Synchronization

/// One browser of the check: its own cookie jar, redirects followed as a browser follows them, and
/// the SameSite rule applied to the cross-site callback from the Apple ID server.
final class SimulatedBrowser: Sendable {
    struct Cookie: Sendable {
        var value: String
        /// `Lax` or `Strict` cookies stay home on a cross-site POST (the form_post callback).
        var sameSiteRestricted: Bool
    }

    struct Page: Sendable {
        var status: Int
        var url: String
        var body: String
        var location: String?
    }

    private let jar = Mutex<[String: [String: Cookie]]>([:])
    private let last = Mutex<Page?>(nil)
    let client: HTTPClient
    /// The longest any one request may take (bounded, network on loopback only).
    let timeout: TimeAmount

    init(client: HTTPClient, timeout: TimeAmount) {
        self.client = client
        self.timeout = timeout
    }

    /// GET `url`, following redirects while `follow` says so for the next location.
    func get(_ url: String, timeout: TimeAmount? = nil, follow: (URL) -> Bool = { _ in true }) async throws -> Page {
        try await navigate(method: .GET, url: url, body: nil, crossSite: false, timeout: timeout, follow: follow)
    }

    /// POST a form, by default as the Apple ID server's page does: cross-site, then follow the app's redirects.
    func postForm(
        _ url: String, fields: [(String, String)], crossSite: Bool = true, timeout: TimeAmount? = nil, follow: (URL) -> Bool = { _ in true }
    ) async throws -> Page {
        try await navigate(method: .POST, url: url, body: Self.encode(fields), crossSite: crossSite, timeout: timeout, follow: follow)
    }

    private func navigate(
        method: HTTPMethod, url: String, body: String?, crossSite: Bool, timeout: TimeAmount?, follow: (URL) -> Bool
    ) async throws -> Page {
        var page = try await send(method: method, url: url, body: body, crossSite: crossSite, timeout: timeout)
        var hops = 0
        while (300..<400).contains(page.status), let location = page.location, hops < 10,
            let next = URL(string: location, relativeTo: URL(string: page.url))?.absoluteURL, follow(next)
        {
            page = try await send(method: .GET, url: next.absoluteString, body: nil, crossSite: false, timeout: timeout)
            hops += 1
        }
        last.withLock { $0 = page }
        return page
    }

    /// Where the last navigation ended (`--signed-in-when redirect:` and `body:` judge it).
    var lastPage: Page? { last.withLock { $0 } }

    func hasCookie(_ name: String, for url: String) -> Bool {
        jar.withLock { $0[Self.origin(url)]?[name] != nil }
    }

    private func send(method: HTTPMethod, url: String, body: String?, crossSite: Bool, timeout: TimeAmount?) async throws -> Page {
        var request = HTTPClientRequest(url: url)
        request.method = method
        request.headers.add(name: "User-Agent", value: "siwa-check")
        let host = Self.origin(url)
        let cookies = (jar.withLock { $0[host] } ?? [:]).filter { !crossSite || !$0.value.sameSiteRestricted }
        if !cookies.isEmpty {
            request.headers.add(
                name: "Cookie", value: cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.value)" }.joined(separator: "; "))
        }
        if let body {
            request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
            request.body = .bytes(ByteBuffer(string: body))
        }
        let response = try await client.execute(request, timeout: timeout ?? self.timeout)
        let bytes = try await response.body.collect(upTo: 4 << 20)
        for header in response.headers["Set-Cookie"] { store(header, host: host) }
        return Page(status: Int(response.status.code), url: url, body: String(buffer: bytes), location: response.headers.first(name: "Location"))
    }

    private func store(_ header: String, host: String) {
        let parts = header.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals])
        let value = String(pair[pair.index(after: equals)...])
        let attributes = parts.dropFirst().map { $0.lowercased() }
        let expired = attributes.contains { $0 == "max-age=0" || $0.hasPrefix("max-age=-") } || value.isEmpty
        let restricted = attributes.contains("samesite=lax") || attributes.contains("samesite=strict")
        jar.withLock { jar in jar[host, default: [:]][name] = expired ? nil : Cookie(value: value, sameSiteRestricted: restricted) }
    }

    static func origin(_ url: String) -> String {
        guard let components = URLComponents(string: url) else { return url }
        return "\(components.host ?? ""):\(components.port ?? (components.scheme == "https" ? 443 : 80))"
    }

    static func encode(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map {
            "\($0.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")=\($1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")"
        }
        .joined(separator: "&")
    }
}
