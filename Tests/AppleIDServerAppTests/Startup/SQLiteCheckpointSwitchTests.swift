import AppleIDStore
import Testing

@testable import AppleIDServerApp

@Suite("SIWA_SQLITE_CHECKPOINTS: where siwa serve checkpoints SQLite's log")
struct SQLiteCheckpointSwitchTests {
    @Test("unset, the log is checkpointed beside the writer; in-commit and off-the-writer are taken as said")
    func choices() throws {
        #expect(try SQLiteCheckpointSwitch.checkpoints(environment: [:]) == .offTheWriter)
        #expect(try SQLiteCheckpointSwitch.checkpoints(environment: ["SIWA_SQLITE_CHECKPOINTS": "in-commit"]) == .inCommit)
        #expect(try SQLiteCheckpointSwitch.checkpoints(environment: ["SIWA_SQLITE_CHECKPOINTS": "off-the-writer"]) == .offTheWriter)
    }

    @Test("another value stops the start with the values it takes")
    func unknownValue() {
        #expect {
            try SQLiteCheckpointSwitch.checkpoints(environment: ["SIWA_SQLITE_CHECKPOINTS": "inline"])
        } throws: { error in
            "\(error)" == "SIWA_SQLITE_CHECKPOINTS=inline is not a way to checkpoint SQLite's log; use off-the-writer or in-commit"
        }
    }
}
