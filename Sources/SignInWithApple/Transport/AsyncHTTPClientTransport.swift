import AsyncHTTPClient
import NIOCore
import NIOHTTP1

/// ``HTTPTransport`` over AsyncHTTPClient, with a deadline per request, a bounded response size and
/// a User-Agent (Apple answers some default agents with an HTML 403; spec §4.5).
public struct AsyncHTTPClientTransport: HTTPTransport {
    public let client: HTTPClient
    public let timeout: TimeAmount
    public let userAgent: String
    public let maximumResponseSize: Int

    public init(
        client: HTTPClient = .shared, timeout: TimeAmount = .seconds(10), userAgent: String = "SignInWithApple-Swift/1.0",
        maximumResponseSize: Int = 1 << 20
    ) {
        self.client = client
        self.timeout = timeout
        self.userAgent = userAgent
        self.maximumResponseSize = maximumResponseSize
    }

    public func send(_ request: HTTPTransportRequest) async throws -> HTTPTransportResponse {
        var outgoing = HTTPClientRequest(url: request.url)
        outgoing.method = HTTPMethod(rawValue: request.method.rawValue)
        outgoing.headers.add(name: "User-Agent", value: userAgent)
        for header in request.headers { outgoing.headers.add(name: header.name, value: header.value) }
        if let body = request.body { outgoing.body = .bytes(ByteBuffer(bytes: body)) }
        let response = try await client.execute(outgoing, timeout: timeout)
        let body = try await response.body.collect(upTo: maximumResponseSize)
        return HTTPTransportResponse(status: Int(response.status.code), body: Array(buffer: body))
    }
}
