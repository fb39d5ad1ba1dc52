import AppleIDProvider
import SMTPWire

/// Hands a message to the next server (`siwa serve`: SMTP to the smarthost). The relay's queue calls
/// it for each due delivery and decides, from the result, what happens next.
public protocol MailTransport: Sendable {
    func send(from sender: String, to recipient: String, message: OutgoingRelayMessage) async -> MailTransportResult
}

/// The relay's transports answer as an SMTP client does.
public typealias MailTransportResult = SMTPDeliveryResult

/// A stored message on its way out, read from the store a chunk at a time as the transport sends it:
/// never whole in memory.
public struct OutgoingRelayMessage: Sendable {
    /// Its size in bytes, as stored.
    public let size: Int
    private let read: @Sendable (_ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void

    public init(size: Int, read: @escaping @Sendable (_ body: (ArraySlice<UInt8>) async throws -> Void) async throws -> Void) {
        self.size = size
        self.read = read
    }

    /// Lends `body` the message's bytes in order, a chunk at a time. Throws when the store cannot
    /// read it (the transport must then not finish sending it).
    public func forEachChunk(_ body: (ArraySlice<UInt8>) async throws -> Void) async throws {
        try await read(body)
    }
}
