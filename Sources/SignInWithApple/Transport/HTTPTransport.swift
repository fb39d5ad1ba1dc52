/// An HTTP request the kit sends to Apple (or to an Apple ID server).
public struct HTTPTransportRequest: Sendable, Hashable {
    public enum Method: String, Sendable, Hashable {
        case get = "GET"
        case post = "POST"
        case put = "PUT"
        case patch = "PATCH"
        case delete = "DELETE"
    }

    public var method: Method
    public var url: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]?

    public init(method: Method, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name) && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(method)
        hasher.combine(url)
        hasher.combine(body)
    }
}

/// The answer to an ``HTTPTransportRequest``.
public struct HTTPTransportResponse: Sendable, Hashable {
    public var status: Int
    public var body: [UInt8]

    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// How the kit talks HTTP. ``AsyncHTTPClientTransport`` is the real one; tests may provide others.
public protocol HTTPTransport: Sendable {
    func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse
}
