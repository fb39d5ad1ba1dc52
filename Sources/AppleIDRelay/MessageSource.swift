import AppleIDProvider

/// A received message that the relay reads in pieces: the SMTP listener's spool file, or bytes in
/// memory. Reading through ranges lets a 25 MB message pass the rules, the rewriting and the store
/// while at most one chunk of it is in memory.
public protocol MessageSource: Sendable {
    /// The message's size in bytes.
    var count: Int { get }
    /// Lends `body` the bytes in `range`: they are the caller's only while `body` runs.
    func withBytes<T>(in range: Range<Int>, _ body: (ArraySlice<UInt8>) async throws -> T) async throws -> T
}

extension MessageSource {
    /// Lends `body` the bytes in `range` one chunk at a time, in order.
    func forEachChunk(in range: Range<Int>, _ body: (ArraySlice<UInt8>) async throws -> Void) async throws {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + RelayMessageChunk.size, range.upperBound)
            try await withBytes(in: start..<end, body)
            start = end
        }
    }
}

/// A message already in memory: a reply written on the mailbox page, a bounce, a test's message.
public struct InMemoryMessage: MessageSource {
    public let bytes: [UInt8]

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var count: Int { bytes.count }

    public func withBytes<T>(in range: Range<Int>, _ body: (ArraySlice<UInt8>) async throws -> T) async throws -> T {
        try await body(bytes[range])
    }
}

/// A message as the relay passes it on: its own header section (rewritten), then the received
/// message's body, which is never copied whole.
public struct RelayMessageContent: Sendable {
    /// The header section as it goes on.
    public var head: [UInt8]
    public var received: any MessageSource
    /// Where the part that goes on unchanged starts in `received`.
    public var bodyStart: Int
    /// Names the unchanged part when several copies of one received message share it (one per
    /// recipient, each with its own head): the store keeps that part once. `nil`: not shared.
    public var bodyID: String?

    public init(head: [UInt8], received: any MessageSource, bodyStart: Int, bodyID: String? = nil) {
        self.head = head
        self.received = received
        self.bodyStart = bodyStart
        self.bodyID = bodyID
    }

    /// Bytes in memory, as they go on.
    public init(_ bytes: [UInt8]) { self.init(head: [], received: InMemoryMessage(bytes), bodyStart: 0) }

    public var count: Int { head.count + received.count - bodyStart }

    /// The unchanged part's size.
    public var bodyCount: Int { received.count - bodyStart }

    /// Lends `body` the unchanged part alone, one chunk at a time.
    public func forEachBodyChunk(_ body: (ArraySlice<UInt8>) async throws -> Void) async throws {
        try await received.forEachChunk(in: bodyStart..<received.count, body)
    }

    /// Lends `body` the message as it goes on: the head, then the rest one chunk at a time.
    public func forEachChunk(_ body: (ArraySlice<UInt8>) async throws -> Void) async throws {
        if !head.isEmpty { try await body(head[...]) }
        try await forEachBodyChunk(body)
    }

    /// The whole message in one array: for small messages only (a bounce, a store in memory).
    public func bytes() async throws -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(count)
        try await forEachChunk { bytes += $0 }
        return bytes
    }
}
