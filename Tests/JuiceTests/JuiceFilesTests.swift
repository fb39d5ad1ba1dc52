import Foundation
import Logging
import Testing

@testable import JuiceApp

@Suite("Juice's data folder holds its secrets owner-only")
struct JuiceFilesTests {
    @Test("the data folder is 0700; storage.key, juice.sqlite and its -wal and -shm are 0600 from their creation")
    func filesAtRest() async throws {
        let parent = FileManager.default.temporaryDirectory.appendingPathComponent("juice-perm-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: parent) }
        let directory = parent.appendingPathComponent(".juice")
        let previous = umask(0o022)  // the usual umask: files 0644, folders 0755 unless asked otherwise
        let opened: JuiceDatabase
        do {
            defer { umask(previous) }
            opened = try await JuiceDatabase.open(path: directory.appendingPathComponent("juice.sqlite").path, logger: Logger(label: "test"))
        }
        func mode(_ name: String?) throws -> Int {
            let path = name.map { directory.appendingPathComponent($0).path } ?? directory.path
            return try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        #expect(try mode(nil) == 0o700)
        for name in ["storage.key", "juice.sqlite", "juice.sqlite-wal", "juice.sqlite-shm"] {
            #expect(try mode(name) == 0o600, "\(name)")
        }
        try await opened.close()
    }
}
