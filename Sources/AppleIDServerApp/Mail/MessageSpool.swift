import AppleIDProvider
import AppleIDRelay
import Foundation

/// Where the bytes of a message being received go: memory for the usual small message, a private
/// temporary file once it would grow past one chunk, so that a large message costs at most one
/// chunk of memory while it streams in, and one chunk at a time while the relay reads it back.
/// (The session itself drops everything past the size limit.) Memory is also bounded across
/// sessions: once the gauge's budget is used, a spool writes even a small message to its file.
struct MessageSpool: ~Copyable {
    static let memoryLimit = RelayMessageChunk.size

    private var memory: [UInt8] = []
    private var file: FileHandle?
    private var fileURL: URL?
    private var fileCount = 0
    private let directory: URL
    private let gauge: BufferGauge

    init(directory: URL = FileManager.default.temporaryDirectory, gauge: BufferGauge) {
        self.directory = directory
        self.gauge = gauge
    }

    mutating func append(_ bytes: [UInt8]) throws {
        if file == nil, memory.count + bytes.count <= Self.memoryLimit, gauge.tryHold(bytes.count) {
            memory += bytes
            return
        }
        if file == nil { try startFile() }
        try file?.write(contentsOf: bytes)
        fileCount += bytes.count
    }

    /// Moves what memory holds to a new owner-only file (a message may be private mail).
    private mutating func startFile() throws {
        let url = directory.appendingPathComponent("siwa-smtp-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forUpdating: url)
        file = handle
        fileURL = url
        try handle.write(contentsOf: memory)
        fileCount = memory.count
        gauge.release(memory.count)
        memory = []
    }

    /// The message received so far, for the relay to read in pieces; valid until ``discard()``.
    func message() -> any MessageSource {
        guard let file else { return InMemoryMessage(memory) }
        return SpooledMessage(handle: file, count: fileCount, gauge: gauge)
    }

    mutating func discard() {
        gauge.release(memory.count)
        memory = []
        try? file?.close()
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
        file = nil
        fileURL = nil
        fileCount = 0
    }

    deinit {
        gauge.release(memory.count)
        try? file?.close()
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
    }
}

/// A spooled message, read a range at a time with `pread` (no shared file offset, so readers do
/// not disturb each other); what a range lends is reported to the gauge while it is lent.
struct SpooledMessage: MessageSource {
    let handle: FileHandle
    let count: Int
    let gauge: BufferGauge

    func withBytes<T>(in range: Range<Int>, _ body: (ArraySlice<UInt8>) async throws -> T) async throws -> T {
        guard !range.isEmpty else { return try await body([]) }
        var bytes = [UInt8](repeating: 0, count: range.count)
        gauge.hold(range.count)
        defer { gauge.release(range.count) }
        let descriptor = handle.fileDescriptor
        var done = 0
        while done < range.count {
            let read = bytes.withUnsafeMutableBytes { buffer in
                // A non-empty array's buffer has an address.
                pread(descriptor, buffer.baseAddress! + done, range.count - done, off_t(range.lowerBound + done))
            }
            guard read > 0 else { throw CocoaError(.fileReadUnknown) }
            done += read
        }
        return try await body(bytes[...])
    }
}
