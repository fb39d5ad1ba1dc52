import Hummingbird

extension Parameters {
    /// The path parameter `name`, percent-decoded once: `/admin/users/maria.ruiz%40example.com` names
    /// `maria.ruiz@example.com`, `a%2Fb` names `a/b` (one segment), and `+` stays `+` (in a path it is
    /// no space). Malformed encoding is a 400, never a lookup of the raw text.
    func requireDecoded(_ name: String) throws -> String {
        let raw = try require(name)
        guard let decoded = raw.removingPercentEncoding else {
            throw HTTPError(.badRequest, message: "the path segment \(raw) is not valid percent-encoding")
        }
        return decoded
    }
}
