/// A console action the developer registry refuses, with the sentence the form shows. The console
/// pages, the admin API and the `siwa` verbs all show the same message.
public struct ConsoleError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: String, Sendable, Hashable {
        /// The input breaks one of Apple's rules; the developer can correct it.
        case invalid
        /// Something named does not exist (in this team).
        case notFound
        /// The action is not possible in the current state (a key already downloaded, a limit reached).
        case refused
    }

    public let kind: Kind
    public let message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }

    public static func invalid(_ message: String) -> ConsoleError { ConsoleError(.invalid, message) }
    public static func notFound(_ message: String) -> ConsoleError { ConsoleError(.notFound, message) }
    public static func refused(_ message: String) -> ConsoleError { ConsoleError(.refused, message) }
}
