/// One request the emulated browser sends to the app under test: a path (with its query) on the app,
/// as a test client takes it. The sender does not follow redirects: the browser does.
public struct AppRequest: Sendable {
    public var method: String
    /// The path and query on the app, for example `/auth/apple/callback`.
    public var uri: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(method: String, uri: String, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.method = method
        self.uri = uri
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }
}

/// The app's answer to an ``AppRequest``, every header kept (one `Set-Cookie` per cookie).
public struct AppResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The value of the first header called `name` (case-insensitive).
    public func header(_ name: String) -> String? { headers.first { $0.name.lowercased() == name.lowercased() }?.value }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }

    /// Where a redirect (301, 302, 303, 307, 308) sends the browser.
    var redirectLocation: String? { [301, 302, 303, 307, 308].contains(status) ? header("Location") : nil }
}
