import Foundation

/// Where `siwa verify` reads the token: the argument itself, standard input (`-`), or a file
/// (`@path`), as curl reads `-d`. Surrounding whitespace is dropped: a file written by `echo` or a
/// pasted token ends in a newline that is not part of the JWS.
enum TokenArgument {
    struct Unreadable: Error, CustomStringConvertible {
        let description: String
    }

    /// The token `argument` names. `readStandardInput` and `readFile` are the process's own unless a test gives others.
    static func resolve(
        _ argument: String, readStandardInput: () -> Data = { FileHandle.standardInput.readDataToEndOfFile() },
        readFile: (String) -> Data? = { FileManager.default.contents(atPath: $0) }
    ) throws -> String {
        let text: String
        if argument == "-" {
            text = String(decoding: readStandardInput(), as: UTF8.self)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw Unreadable(description: "standard input is empty: pipe the token in, or pass it as the argument")
            }
        } else if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard let data = readFile(path) else { throw Unreadable(description: "cannot read the token file \(path)") }
            text = String(decoding: data, as: UTF8.self)
            guard !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw Unreadable(description: "the token file \(path) is empty")
            }
        } else {
            text = argument
        }
        return text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
