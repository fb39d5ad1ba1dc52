import ArgumentParser
import Foundation

/// The commands made of verbs (`siwa users`, `siwa clock`, …) and their verbs, checked before the
/// argument parser sees the command line. Without this, a mistyped verb (`siwa users lst --data-dir
/// .siwa`) is reported as the first option the group does not know ("Unknown option '--data-dir'"),
/// which names the wrong problem.
enum VerbCheck {
    static let groups: [any ParsableCommand.Type] = [
        Users.self, Notify.self, Clock.self, Teams.self, Apps.self, Keys.self, Bench.self, Developers.self, EmailSources.self,
    ]

    /// The one-line refusal for `arguments` (without the program name), or `nil` when the verb is known.
    static func refusal(_ arguments: [String]) -> CLIError? {
        guard arguments.count >= 2, let group = groups.first(where: { $0._commandName == arguments[0] }) else { return nil }
        let given = arguments[1]
        guard !given.hasPrefix("-") else { return nil }  // --help and friends
        let verbs = group.configuration.subcommands.map { $0._commandName }
        guard !verbs.contains(given) else { return nil }
        let nearest = verbs.min { distance($0, given) < distance($1, given) }
        let hint = nearest.flatMap { distance($0, given) <= 2 ? " Did you mean '\($0)'?" : nil } ?? ""
        return CLIError("siwa \(arguments[0]) has no verb '\(given)'.\(hint) The verbs: \(verbs.joined(separator: ", ")).")
    }

    /// Levenshtein distance, for the "did you mean" hint.
    static func distance(_ lhs: String, _ rhs: String) -> Int {
        let lhs = Array(lhs)
        let rhs = Array(rhs)
        var previous = Array(0...rhs.count)
        for (i, left) in lhs.enumerated() {
            var current = [i + 1]
            for (j, right) in rhs.enumerated() {
                current.append(min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
            }
            previous = current
        }
        return previous[rhs.count]
    }
}

/// A refusal of the command line, printed as one line (`Error: …`) with exit status 1 and no usage
/// text: the message says what to change.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
