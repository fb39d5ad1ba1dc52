import Foundation
import Testing

/// Products by weight (Hummingbird's `HummingbirdTesting` is light): a kit user's app and tests link
/// no font rendering, no PostgreSQL and no Prometheus, and the engine links no HTTP framework.
@Suite("Package: what each product links")
struct ProductWeightTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// What only `siwa serve` needs: the button renderer's C libraries, OpenSSL's libcrypto (its RS256
    /// signer), PostgreSQL and Prometheus.
    static let serveOnlyModules: Set<String> = [
        "CFreeType", "CLibPNG", "CLibCrypto", "RS256OpenSSL", "AppleIDButtons", "AppleIDStore", "AppleIDServerApp",
    ]
    /// The system libraries of the manifest (`.systemLibrary`): each needs a `-dev` package to build.
    static let systemLibraries: Set<String> = ["CFreeType", "CLibPNG", "CLibCrypto"]
    static let serveOnlyPackages: Set<String> = ["postgres-kit", "postgres-nio", "swift-prometheus"]

    @Test(
        "the kit and the emulator link no FreeType, libpng, libcrypto, PostgreSQL or Prometheus",
        arguments: ["SignInWithApple", "SignInWithAppleTesting"])
    func kitIsLight(_ target: String) throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let closure = graph.closure(of: target)
        let heavy = closure.filter { module in
            module.package == nil ? Self.serveOnlyModules.contains(module.name) : Self.serveOnlyPackages.contains(module.package!)
        }
        #expect(heavy.isEmpty, "\(target) reaches \(heavy.map(\.description).sorted())")
    }

    @Test(
        "the engine, the emulator and the kit link no system library: the RS256 signer is handed in, and only siwa serve links libcrypto",
        arguments: ["AppleIDProvider", "SignInWithAppleTesting", "SignInWithApple"])
    func noSystemLibrary(_ target: String) throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let system = graph.closure(of: target).filter { $0.package == nil && Self.systemLibraries.contains($0.name) }
        #expect(system.isEmpty, "\(target) reaches \(system.map(\.description).sorted())")
        #expect(graph.closure(of: "AppleIDServerApp").contains { $0.description == "CLibCrypto" }, "the reader sees the edge")
    }

    @Test("the engine links no Hummingbird module (HummingbirdBcrypt is bcrypt's C code alone)")
    func engineLinksNoHTTPFramework() throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let closure = graph.closure(of: "AppleIDProvider")
        let http = closure.filter {
            $0.package == "hummingbird" || ($0.package == "hummingbird-auth" && $0.name != "HummingbirdBcrypt" && $0.name != "CBcrypt")
        }
        #expect(http.isEmpty, "AppleIDProvider reaches \(http.map(\.description).sorted())")
    }

    @Test("settings are read in the composition root: the engine links no swift-configuration and no Yams")
    func engineReadsNoConfiguration() throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let configuration = graph.closure(of: "AppleIDProvider").filter { $0.package == "swift-configuration" || $0.package == "Yams" }
        #expect(configuration.isEmpty, "AppleIDProvider reaches \(configuration.map(\.description).sorted())")
        #expect(graph.closure(of: "AppleIDServerApp").contains { $0.package == "swift-configuration" }, "the reader sees the edge")
    }

    @Test("the engine links neither the relay nor SMTP: the relay (AppleIDRelay) sits above it and asks it")
    func engineLinksNoRelay() throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let mail = graph.closure(of: "AppleIDProvider").filter { $0.package == nil && ["AppleIDRelay", "SMTPWire", "SMTPSending"].contains($0.name) }
        #expect(mail.isEmpty, "AppleIDProvider reaches \(mail.map(\.description).sorted())")
        let relay = Set(graph.closure(of: "AppleIDRelay").map(\.description))
        #expect(relay.isSuperset(of: ["AppleIDProvider", "SMTPWire"]), "the reader sees the relay's edges: \(relay.sorted())")
    }

    @Test("the engine links no console, and the relay none either: AppleIDConsole sits above the engine, beside the relay")
    func engineLinksNoConsole() throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        for module in ["AppleIDProvider", "AppleIDRelay"] {
            let console = graph.closure(of: module).filter { $0.package == nil && $0.name == "AppleIDConsole" }
            #expect(console.isEmpty, "\(module) reaches AppleIDConsole")
        }
        let closure = Set(graph.closure(of: "AppleIDConsole").map(\.description))
        #expect(closure.contains("AppleIDProvider"), "the reader sees the console's edges: \(closure.sorted())")
        #expect(!closure.contains("SMTPWire") && !closure.contains("AppleIDRelay"), "the console links no mail: \(closure.sorted())")
    }

    /// A module beside the engine that two higher modules share, and that must not reach back up.
    struct SharedArea: Sendable, CustomTestStringConvertible {
        var module: String
        /// The modules that link it.
        var linkedBy: [String]
        /// What it must not reach.
        var below: [String]
        var testDescription: String { module }
    }

    @Test(
        "an area shared by two modules sits below both: they link it, and it links neither (nor mail)",
        arguments: [
            // The console edits the e-mail sources, the relay reads them.
            SharedArea(
                module: "AppleIDEmailSources", linkedBy: ["AppleIDConsole", "AppleIDRelay"], below: ["AppleIDConsole", "AppleIDRelay", "SMTPWire"]),
            // The console and the emulator both create organizations.
            SharedArea(
                module: "AppleIDOrganizations", linkedBy: ["AppleIDConsole", "SignInWithAppleTesting"],
                below: ["AppleIDConsole", "AppleIDRelay", "AppleIDEmailSources", "SMTPWire"]),
        ])
    func sharedAreaSitsBelow(_ area: SharedArea) throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        for module in area.linkedBy {
            #expect(graph.closure(of: module).contains { $0.package == nil && $0.name == area.module }, "\(module) links \(area.module)")
        }
        let closure = Set(graph.closure(of: area.module).map(\.description))
        #expect(closure.contains("AppleIDProvider"), "the reader sees the module's edges: \(closure.sorted())")
        for module in area.below { #expect(!closure.contains(module), "\(area.module) reaches \(module)") }
    }

    @Test("the admin API's types link no server module, no engine, no HTTP framework and no NIO, so siwa check stays light")
    func adminTypesAreLight() throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let closure = graph.closure(of: "AppleIDAdminAPI")
        let heavy = closure.filter { module in
            guard let package = module.package else {
                return ["AppleIDProvider", "AppleIDStore", "AppleIDServer", "AppleIDServerApp"].contains(module.name)
            }
            return ["hummingbird", "hummingbird-auth", "swift-nio", "sql-kit"].contains(package)
        }
        #expect(closure.contains { $0.name == "AppleIDProtocol" }, "the reader sees the edge")
        #expect(heavy.isEmpty, "AppleIDAdminAPI reaches \(heavy.map(\.description).sorted())")
    }

    @Test("the reader sees what the manifest declares: the server app reaches the renderer, PostgreSQL and Hummingbird")
    func readerFindsKnownEdges() throws {
        var graph = try ManifestGraph(root: Self.packageRoot)
        let closure = graph.closure(of: "AppleIDServerApp")
        let names = Set(closure.map(\.description))
        for expected in ["CFreeType", "CLibPNG", "postgres-nio:PostgresNIO", "swift-prometheus:Prometheus", "hummingbird:Hummingbird"] {
            #expect(names.contains(expected), "\(expected) missing from \(names.sorted())")
        }
    }
}
