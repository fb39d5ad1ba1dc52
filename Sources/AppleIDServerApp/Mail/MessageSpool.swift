import Foundation

/// Where the bytes of a message being received go: memory for the usual small message, a private
/// temporary file once it grows past ``memoryLimit``, so that a large message costs one chunk of
/// memory while it streams in. (The session itself drops everything past the size limit.)
struct MessageSpool: ~Copyable {
    static let memoryLimit = 256 * 1024

    private var memory: [UInt8] = []
    private var file: FileHandle?
    private var fileURL: URL?
    private let directory: URL

    init(directory: URL = FileManager.default.temporaryDirectory) {
        self.directory = directory
    }

    mutating func append(_ bytes: [UInt8]) throws {
        if let file {
            try file.write(contentsOf: bytes)
            return
        }
        memory += bytes
        guard memory.count > Self.memoryLimit else { return }
        let url = directory.appendingPathComponent("siwa-smtp-\(UUID().uuidString)")
        // Owner-only: a message may be private mail.
        guard FileManager.default.createFile(atPath: url.path, contents: nil, attributes: [.posixPermissions: 0o600]) else {
            throw CocoaError(.fileWriteUnknown)
        }
        let handle = try FileHandle(forUpdating: url)
        try handle.write(contentsOf: memory)
        memory = []
        file = handle
        fileURL = url
    }

    /// Everything received, and an empty spool.
    mutating func take() throws -> [UInt8] {
        defer { discard() }
        guard let file else { return memory }
        try file.seek(toOffset: 0)
        return Array(try file.readToEnd() ?? Data())
    }

    mutating func discard() {
        memory = []
        try? file?.close()
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
        file = nil
        fileURL = nil
    }

    deinit {
        try? file?.close()
        if let fileURL { try? FileManager.default.removeItem(at: fileURL) }
    }
}
