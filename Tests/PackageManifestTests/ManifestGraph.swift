import Foundation

/// The module graph that `Package.swift` files declare, read from their text. `swift package
/// describe` would be exact but runs SwiftPM inside `swift test` (slow, and it takes the build
/// folder's lock); the manifests here spell every dependency as a literal (`"Name"`,
/// `.target(name:)`, `.byName(name:)`, `.product(name:package:)`), which this reads. A dependency
/// package's manifest is read from its checkout in `.build/checkouts/<identity>`.
struct ManifestGraph {
    /// A module: a target of a package (`package` is the identity, `nil` for ours).
    struct Module: Hashable, CustomStringConvertible {
        let package: String?
        let name: String
        var description: String { package.map { "\($0):\(name)" } ?? name }
    }

    enum Dependency: Hashable {
        case byName(String)
        case product(name: String, package: String)
    }

    struct Manifest {
        var targets: [String: [Dependency]] = [:]
        var products: [String: [String]] = [:]
    }

    let root: URL
    private var manifests: [String?: Manifest] = [:]

    init(root: URL) throws {
        self.root = root
        manifests[nil] = try Self.parse(String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8))
    }

    /// `target` and every module it reaches, in this package and in its dependencies.
    mutating func closure(of target: String) -> Set<Module> {
        var seen: Set<Module> = []
        var queue = [Module(package: nil, name: target)]
        while let module = queue.popLast() {
            guard seen.insert(module).inserted else { continue }
            let manifest = self.manifest(module.package)
            for dependency in manifest.targets[module.name] ?? [] {
                switch dependency {
                case .byName(let name):
                    queue.append(Module(package: module.package, name: name))
                case .product(let name, let package):
                    // A product the manifest declares in code (swift-collections builds its list in a
                    // loop) counts as one module named after it: its package still shows in the closure.
                    let targets = self.manifest(package).products[name] ?? [name]
                    queue += targets.map { Module(package: package, name: $0) }
                }
            }
        }
        return seen
    }

    private mutating func manifest(_ package: String?) -> Manifest {
        if let manifest = manifests[package] { return manifest }
        let url = root.appendingPathComponent(".build/checkouts/\(package ?? "")/Package.swift")
        // No checkout: SwiftPM left the package out of the build (a dependency behind a trait that is
        // off). Its products count as leaves; `readerFindsKnownEdges` proves checkouts are read at all.
        let manifest = (try? String(contentsOf: url, encoding: .utf8)).map(Self.parse) ?? Manifest()
        manifests[package] = manifest
        return manifest
    }

    // MARK: Reading a manifest's text

    static func parse(_ source: String) -> Manifest {
        let text = Array(source.split(separator: "\n", omittingEmptySubsequences: false).map(stripComment).joined(separator: "\n"))
        var manifest = Manifest()
        for (_, body) in calls(in: text, named: ["target", "executableTarget", "testTarget", "systemLibrary", "binaryTarget", "macro", "plugin"]) {
            guard let name = firstString(after: "name:", in: body) else { continue }
            // A manifest may also name a target in a dependency it keeps in a variable: merge, never replace.
            manifest.targets[name, default: []] += bracket(after: "dependencies:", in: body).map(dependencies) ?? []
        }
        for (_, body) in calls(in: text, named: ["library", "executable"]) {
            guard let name = firstString(after: "name:", in: body), let targets = bracket(after: "targets:", in: body) else { continue }
            manifest.products[name] = strings(in: targets)
        }
        return manifest
    }

    private static func stripComment(_ line: Substring) -> String {
        var inString = false
        var previous: Character = " "
        for (offset, character) in line.enumerated() {
            if character == "\"" { inString.toggle() }
            if !inString, character == "/", previous == "/" { return String(line.prefix(offset - 1)) }
            previous = character
        }
        return String(line)
    }

    /// The top-level `.kind(…)` calls (nested ones belong to their parent), with their argument text.
    private static func calls(in text: [Character], named kinds: Set<String>) -> [(String, [Character])] {
        var found: [(String, [Character])] = []
        var index = 0
        while index < text.count {
            if text[index] == ".", let (kind, open) = identifier(in: text, from: index + 1), kinds.contains(kind), open < text.count,
                text[open] == "(", let close = matching(text, open)
            {
                found.append((kind, Array(text[(open + 1)..<close])))
                index = close + 1
            } else {
                index += 1
            }
        }
        return found
    }

    private static func dependencies(_ list: [Character]) -> [Dependency] {
        var result: [Dependency] = []
        var index = 0
        while index < list.count {
            if list[index] == ".", let (kind, open) = identifier(in: list, from: index + 1), open < list.count, list[open] == "(",
                let close = matching(list, open)
            {
                let arguments = Array(list[(open + 1)..<close])
                if kind == "product", let name = firstString(after: "name:", in: arguments),
                    let package = firstString(after: "package:", in: arguments)
                {
                    result.append(.product(name: name, package: package))
                } else if kind == "target" || kind == "byName", let name = firstString(after: "name:", in: arguments) {
                    result.append(.byName(name))
                }
                index = close + 1
            } else if list[index] == "\"", let (string, end) = stringLiteral(in: list, at: index) {
                result.append(.byName(string))
                index = end
            } else {
                index += 1
            }
        }
        return result
    }

    private static func identifier(in text: [Character], from start: Int) -> (String, Int)? {
        var end = start
        while end < text.count, text[end].isLetter || text[end].isNumber || text[end] == "_" { end += 1 }
        return end > start ? (String(text[start..<end]), end) : nil
    }

    private static func matching(_ text: [Character], _ open: Int) -> Int? {
        let pairs: [Character: Character] = ["(": ")", "[": "]"]
        guard let closer = pairs[text[open]] else { return nil }
        var depth = 0
        var index = open
        while index < text.count {
            if text[index] == "\"", let (_, end) = stringLiteral(in: text, at: index) {
                index = end
                continue
            }
            if text[index] == text[open] { depth += 1 }
            if text[index] == closer {
                depth -= 1
                if depth == 0 { return index }
            }
            index += 1
        }
        return nil
    }

    private static func stringLiteral(in text: [Character], at start: Int) -> (String, Int)? {
        guard let end = text[(start + 1)...].firstIndex(of: "\"") else { return nil }
        return (String(text[(start + 1)..<end]), end + 1)
    }

    private static func range(of label: String, in text: [Character]) -> Int? {
        let needle = Array(label)
        guard text.count >= needle.count else { return nil }
        return (0...(text.count - needle.count)).first { text[$0..<($0 + needle.count)].elementsEqual(needle) }.map { $0 + needle.count }
    }

    private static func firstString(after label: String, in text: [Character]) -> String? {
        guard let start = range(of: label, in: text), let quote = text[start...].firstIndex(of: "\"") else { return nil }
        return stringLiteral(in: text, at: quote)?.0
    }

    private static func bracket(after label: String, in text: [Character]) -> [Character]? {
        guard let start = range(of: label, in: text), let open = text[start...].firstIndex(of: "["), let close = matching(text, open) else {
            return nil
        }
        return Array(text[(open + 1)..<close])
    }

    private static func strings(in text: [Character]) -> [String] {
        var result: [String] = []
        var index = 0
        while index < text.count {
            if text[index] == "\"", let (string, end) = stringLiteral(in: text, at: index) {
                result.append(string)
                index = end
            } else {
                index += 1
            }
        }
        return result
    }
}
