import AppleIDProvider
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOSSL

/// ``NotificationSender`` over AsyncHTTPClient: no redirects, a short connect timeout, and a
/// connection to the address the engine checked.
///
/// Pinning: the engine resolved the endpoint's host once and checked the address; a second lookup
/// by the client could answer differently (DNS rebinding to 127.0.0.1). AsyncHTTPClient's
/// `dnsOverride` maps the URL's host to that address for the connection only, while the `Host`
/// header, the TLS server name (SNI) and the certificate check keep using the host name. The override
/// is client configuration, so each pinned post gets its own short-lived client on the shared event
/// loop group: notifications are few, and a pool keyed by name alone could reuse a connection to an
/// address that was never checked.
public struct HTTPNotificationSender: NotificationSender {
    let connectTimeout: TimeAmount
    let logger: Logger

    public init(connectTimeout: TimeAmount = .seconds(3), logger: Logger = Logger(label: "AppleIDServer.NotificationSender")) {
        self.connectTimeout = connectTimeout
        self.logger = logger
    }

    public func post(_ body: [UInt8], to destination: NotificationDestination, timeout: TimeInterval) async throws -> Int {
        var configuration = HTTPClient.Configuration()
        // A 3xx is an answer like any non-2xx ("HTTP 302"): following it would let an endpoint send
        // the server anywhere, past the address check.
        configuration.redirectConfiguration = .disallow
        configuration.timeout = .init(connect: connectTimeout)
        if let address = destination.address { configuration.dnsOverride = [destination.host: address.text] }
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
        do {
            let status = try await send(body, to: destination.url, timeout: timeout, with: client)
            try await client.shutdown()
            return status
        } catch {
            try? await client.shutdown()
            // The precise error (refused, reset, which TLS alert) only here: the delivery log is the team's.
            logger.debug("notification post failed", metadata: ["host": "\(destination.host)", "error": "\(error)"])
            throw Self.failure(for: error)
        }
    }

    private func send(_ body: [UInt8], to url: String, timeout: TimeInterval, with client: HTTPClient) async throws -> Int {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/json")
        request.headers.add(name: "User-Agent", value: "AppleIDServer-Notifications/1.0")
        request.body = .bytes(ByteBuffer(bytes: body))
        let response = try await client.execute(request, timeout: .milliseconds(Int64(timeout * 1000)))
        _ = try await response.body.collect(upTo: 64 * 1024)
        return Int(response.status.code)
    }

    static let timeouts: [HTTPClientError] = [.deadlineExceeded, .readTimeout, .writeTimeout, .connectTimeout, .tlsHandshakeTimeout]

    /// The coarse class of a client error.
    static func failure(for error: any Error) -> DeliveryFailure {
        switch error {
        case let error as HTTPClientError where timeouts.contains(error): .timeout
        case is NIOSSLError, is NIOSSLExtraError, is BoringSSLError: .tlsError
        default: .couldNotConnect
        }
    }
}
