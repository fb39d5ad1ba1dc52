import Foundation
import Testing

@testable import siwa

/// How `siwa verify` turns its argument into a token, without a process.
@Suite("siwa verify's token argument: literal, - or @path")
struct TokenArgumentTests {
    static func resolve(_ argument: String, standardInput: String = "", files: [String: String] = [:]) throws -> String {
        try TokenArgument.resolve(
            argument, readStandardInput: { Data(standardInput.utf8) }, readFile: { files[$0].map { Data($0.utf8) } })
    }

    @Test("a literal token is itself, without surrounding whitespace")
    func literal() throws {
        #expect(try Self.resolve("a.b.c") == "a.b.c")
        #expect(try Self.resolve(" a.b.c\n") == "a.b.c")
    }

    @Test("- reads standard input; a trailing newline is dropped")
    func standardInput() throws {
        #expect(try Self.resolve("-", standardInput: "a.b.c\n") == "a.b.c")
    }

    @Test("@path reads the file; CRLF endings are dropped")
    func file() throws {
        #expect(try Self.resolve("@/tmp/t.jwt", files: ["/tmp/t.jwt": "a.b.c\r\n"]) == "a.b.c")
    }

    @Test("empty standard input, a missing file and an empty file are usage errors that say which")
    func unreadable() {
        #expect(throws: TokenArgument.Unreadable.self) { try Self.resolve("-", standardInput: " \n") }
        let missing = #expect(throws: TokenArgument.Unreadable.self) { try Self.resolve("@/nope.jwt") }
        #expect(missing?.description == "cannot read the token file /nope.jwt")
        let empty = #expect(throws: TokenArgument.Unreadable.self) { try Self.resolve("@/e.jwt", files: ["/e.jwt": ""]) }
        #expect(empty?.description == "the token file /e.jwt is empty")
    }
}
