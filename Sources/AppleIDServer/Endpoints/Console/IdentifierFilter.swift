import AppleIDProvider
import Hummingbird

/// The Identifiers list's type filter and search, from the query (they work without JavaScript), and
/// the identifier just removed, named in the confirmation.
struct IdentifierFilter: Sendable {
    var kind: RegisteredClient.Kind = .app
    var query = ""
    var removed: String?

    init() {}

    init(_ request: Request) {
        let parameters = request.uri.queryParameters
        kind = parameters["type"].map(String.init) == "services" ? .service : .app
        query = String((parameters["q"].map(String.init) ?? "").trimmingCharacters(in: .whitespaces).prefix(100))
        removed = parameters["removed"].map(String.init).flatMap(ConsoleSite.plainIdentifier)
    }

    /// Whether the client's name or identifier contains the search, ignoring case.
    func matches(_ client: RegisteredClient) -> Bool {
        query.isEmpty || client.id.rawValue.localizedCaseInsensitiveContains(query) || client.description.localizedCaseInsensitiveContains(query)
    }
}
