import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Files and folders that hold secrets (the server's and Juice's storage keys, `demo.json` with the
/// admin token, `.p8` private keys, the databases): created owner-only from the first byte. Writing
/// first and `chmod`-ing after leaves a window in which another user of a shared machine can open
/// the file.
///
/// A SQLite database made with ``touch(_:)`` before SQLite opens it keeps its `-wal` and `-shm`
/// files owner-only too: SQLite creates them with the database file's permissions.
public enum PrivateFiles {
    /// Creates the folder `0700`, or narrows an existing one that others could enter.
    public static func makeDirectory(_ url: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) {
            guard isDirectory.boolValue else { throw PrivateFileError(path: url.path, reason: "it exists and is not a folder") }
            let mode = (try FileManager.default.attributesOfItem(atPath: url.path)[.posixPermissions] as? NSNumber)?.uint16Value ?? 0
            if mode & 0o077 != 0 { try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path) }
            return
        }
        try FileManager.default.createDirectory(
            at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        guard mkdir(url.path, 0o700) == 0 || errno == EEXIST else {
            throw PrivateFileError(path: url.path, reason: String(cString: strerror(errno)))
        }
    }

    /// Writes `data` to a new file `0600`; fails if the file exists (`O_EXCL`).
    public static func create(_ data: Data, at url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw PrivateFileError(path: url.path, reason: String(cString: strerror(errno))) }
        defer { close(descriptor) }
        try data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)  // non-empty buffer has a base address
                guard written > 0 else { throw PrivateFileError(path: url.path, reason: String(cString: strerror(errno))) }
                offset += written
            }
        }
        guard fsync(descriptor) == 0 else { throw PrivateFileError(path: url.path, reason: String(cString: strerror(errno))) }
    }

    /// Replaces the file atomically: a new `0600` file beside it, renamed over it.
    public static func replace(_ data: Data, at url: URL) throws {
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        try create(data, at: temporary)
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary.path)
            throw PrivateFileError(path: url.path, reason: reason)
        }
    }

    /// Makes an empty `0600` file unless one exists (for a database the driver creates otherwise).
    public static func touch(_ url: URL) throws {
        guard !FileManager.default.fileExists(atPath: url.path) else { return }
        do {
            try create(Data(), at: url)
        } catch let error as PrivateFileError where FileManager.default.fileExists(atPath: url.path) {
            _ = error  // created meanwhile by another process: fine
        }
    }
}

/// What went wrong with which path.
public struct PrivateFileError: Error, CustomStringConvertible {
    public let path: String
    public let reason: String
    public var description: String { "\(path): \(reason)" }
}
