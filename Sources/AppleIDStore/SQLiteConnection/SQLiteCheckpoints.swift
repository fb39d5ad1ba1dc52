/// Where a file database's write-ahead log is copied back into the database file (issue 38).
public enum SQLiteCheckpoints: String, Sendable, CaseIterable {
    /// On a connection of its own, beside the writer (``SQLiteWALCheckpointer``): the default.
    case offTheWriter = "off-the-writer"
    /// SQLite's automatic checkpoint, inside the commit that takes the log past 1,000 pages, while every
    /// write behind it waits: SQLite's default, kept to measure the other against it.
    case inCommit = "in-commit"
}
