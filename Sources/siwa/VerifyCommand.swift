import AppleIDProtocol
import ArgumentParser
import Foundation
import SignInWithApple

/// `siwa verify`: verifies an identity token through the kit and prints its typed claims.
///
/// Exit status: 0 verified, 1 refused, 2 usage error. ArgumentParser would exit 64 on a usage
/// error, so the options are parsed here from the captured arguments (see ``UsageErrors``).
struct Verify: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: VerifyOptions.configuration.abstract,
        usage: VerifyOptions.usageString(),
        discussion: "Exit status: 0 verified, 1 refused (the reason goes to stderr), 2 usage error.\n\n"
            + UsageErrors.optionsHelp(VerifyOptions.self))

    @Argument(parsing: .captureForPassthrough, help: .hidden) var arguments: [String] = []

    func run() async throws {
        try await UsageErrors.parse(VerifyOptions.self, arguments).verify()
    }
}

struct VerifyOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "siwa verify",
        abstract: "Verify an identity token (id_token) as the kit does and print its claims.")

    @Argument(help: "The identity token (compact JWS), - to read it from standard input, or @path to read it from a file.")
    var idToken: String
    @Option(help: "An accepted aud: a bundle ID or Services ID of the app group (repeatable, at least one).")
    var audience: [String]
    @Option(
        help:
            "Base URL of an Apple ID server (siwa serve) whose /auth/keys to use instead of Apple's. Default: the local server of --data-dir when the token's iss is its issuer."
    )
    var baseURL: String?
    @Option(help: "The data directory of a local siwa serve (its demo.json names its issuer and URL).") var dataDir = ".siwa"
    @Option(help: "A fixed JWKS file to verify with instead of fetching keys.") var jwks: String?
    @Option(help: "An accepted iss (repeatable). Default: the environment's; https://appleid.apple.com with --jwks.")
    var issuer: [String] = []
    @Option(help: "Verify as if the time were this UNIX time (seconds).") var at: Int?
    @Option(help: "The nonce sent with the authorization request.") var nonce: String?
    @Flag(help: "The token carries the SHA-256 (hex) of --nonce, as native apps send it.") var hashedNonce = false
    @Option(help: "Tolerated clock difference for exp, iat and nbf, in seconds (default: the kit's, 60).")
    var leeway: Int = Int(IdentityTokenVerifier.defaultLeeway)

    func validate() throws {
        if audience.isEmpty || audience.contains("") { throw ValidationError("name at least one --audience (the app's client IDs)") }
        if baseURL != nil && jwks != nil { throw ValidationError("use --base-url or --jwks, not both") }
        if hashedNonce && nonce == nil { throw ValidationError("--hashed-nonce needs --nonce") }
        if leeway < 0 { throw ValidationError("--leeway is a number of seconds, 0 or more") }
        if let baseURL, !(baseURL.hasPrefix("http://") || baseURL.hasPrefix("https://")) {
            throw ValidationError("--base-url \(baseURL) is not an http(s) URL")
        }
    }

    func verify() async throws {
        let token: String
        do {
            token = try TokenArgument.resolve(idToken)
        } catch let error as TokenArgument.Unreadable {
            throw UsageErrors.fail(Self.self, error.description)
        }
        let clock: @Sendable () -> Date = { [at] in at.map { Date(timeIntervalSince1970: TimeInterval($0)) } ?? Date() }
        let keys: AppleKeySet
        var issuers: [String]
        var keysEndpoint: String?
        if let jwks {
            guard let bytes = FileManager.default.contents(atPath: jwks) else {
                throw UsageErrors.fail(Self.self, "cannot read the JWKS file \(jwks)")
            }
            keys = AppleKeySet(jwksJSON: Array(bytes))
            guard await !keys.knownKeyIDs.isEmpty else { throw UsageErrors.fail(Self.self, "\(jwks) holds no RSA signing key") }
            issuers = AppleEnvironment.production.issuers
            // A key set file says nothing of its issuer: a token from another one needs --issuer.
            if issuer.isEmpty, let tokenIssuer = Self.unverifiedIssuer(of: token), !issuers.containsExactly(tokenIssuer) {
                throw UsageErrors.fail(
                    Self.self,
                    "this token was issued by \(tokenIssuer), and --jwks accepts Apple's issuer unless told another: pass --issuer \(tokenIssuer)")
            }
        } else {
            let environment = try baseURL.map { AppleEnvironment.custom(baseURL: $0) } ?? environment(for: token)
            keys = AppleKeySet(environment: environment, transport: AsyncHTTPClientTransport(), clock: clock)
            issuers = environment.issuers
            keysEndpoint = environment.keysEndpoint
        }
        if !issuer.isEmpty { issuers = issuer }
        let verifier = IdentityTokenVerifier(
            issuers: Set(issuers), audiences: Set(audience), keys: keys, leeway: TimeInterval(leeway), clock: clock)
        let identity: VerifiedIdentityToken
        do {
            identity = try await verifier.verify(token, nonce: nonce.map { Nonce(raw: $0, convention: hashedNonce ? .sha256 : .plain) })
        } catch let error as IdentityTokenError where error.kind == .keySetUnavailable {
            let reason = error.value ?? ""
            let plain = reason.contains("Connection refused") ? "connection refused (is the server running?)" : reason
            UsageErrors.printError("refused: the key set \(keysEndpoint.map { "at \($0) " } ?? "")is unavailable: \(plain)")
            throw ExitCode.failure
        } catch let error as IdentityTokenError {
            UsageErrors.printError("refused: \(error.description)")
            throw ExitCode.failure
        }
        for (name, value) in Self.lines(identity) { print("\(name): \(value)") }
    }

    /// The typed claims, one per line, optional ones only when present.
    static func lines(_ identity: VerifiedIdentityToken) -> [(String, String)] {
        func time(_ date: Date) -> String { "\(Int(date.timeIntervalSince1970)) (\(ISO8601DateFormatter().string(from: date)))" }
        var lines: [(String, String?)] = [
            ("subject", identity.subject), ("issuer", identity.issuer), ("audience", identity.audience),
            ("issuedAt", time(identity.issuedAt)), ("expiresAt", time(identity.expiresAt)), ("email", identity.email),
            ("emailVerified", identity.emailVerified.map(String.init)), ("isPrivateEmail", String(identity.isPrivateEmail)),
            ("realUserStatus", identity.realUserStatus.map { "\($0)" }), ("transferSubject", identity.transferSubject),
            ("authenticatedAt", identity.authenticatedAt.map(time)), ("nonceSupported", identity.nonceSupported.map(String.init)),
        ]
        lines += [("nonce", identity.claims.nonce), ("keyID", identity.keyID)]
        return lines.compactMap { name, value in value.map { (name, $0) } }
    }
}

/// Usage errors exit 2 (ArgumentParser's own exit code for them is 64): a command captures its
/// arguments and parses them here, so that parse and validation errors come back to it.
enum UsageErrors {
    static let exitCode = ExitCode(2)

    static func parse<Options: ParsableArguments>(_ type: Options.Type, _ arguments: [String]) throws -> Options {
        do {
            return try Options.parse(arguments)
        } catch {
            if Options.exitCode(for: error) == .success {
                print(Options.fullMessage(for: error))
                throw ExitCode.success
            }
            printError(Options.fullMessage(for: error))
            throw exitCode
        }
    }

    /// Prints a usage error the way ArgumentParser does, and returns the exit to throw.
    static func fail<Options: ParsableArguments>(_ type: Options.Type, _ message: String) -> ExitCode {
        printError(Options.fullMessage(for: ValidationError(message)))
        return exitCode
    }

    static func printError(_ message: String) {
        FileHandle.standardError.write(Data((message + "\n").utf8))
    }

    /// The ARGUMENTS / OPTIONS part of the help of `Options`, for the help of the command that captures them.
    static func optionsHelp<Options: ParsableCommand>(_ type: Options.Type) -> String {
        let help = Options.helpMessage(columns: 79)
        let start = help.range(of: "ARGUMENTS:") ?? help.range(of: "OPTIONS:")
        return start.map { String(help[$0.lowerBound...]) } ?? help
    }
}

extension VerifyOptions {
    /// Where the keys of a token given without `--base-url` come from, by its `iss` (read, not yet
    /// trusted): Apple's for Apple's issuer; the local server of `--data-dir` for that server's
    /// issuer; otherwise a refusal that names the issuer to pass.
    func environment(for token: String) throws -> AppleEnvironment {
        guard let issuer = Self.unverifiedIssuer(of: token) else { return .production }
        if AppleEnvironment.production.issuers.containsExactly(issuer) { return .production }
        if let facts = try? DemoFacts.read(fromDataDirectory: URL(fileURLWithPath: dataDir)),
            WireMatch.exact(issuer, facts.issuer) || WireMatch.exact(issuer, facts.server)
        {
            return .custom(baseURL: facts.server)
        }
        throw UsageErrors.fail(
            Self.self,
            "this token was issued by \(issuer); pass --base-url \(issuer) (the server that issued it), or --jwks with its key set")
    }

    /// The `iss` of the token's payload, without verifying anything.
    static func unverifiedIssuer(of token: String) -> String? {
        struct Issuer: Decodable { let iss: String? }
        return (try? CompactJWS(token).claims(as: Issuer.self))?.iss
    }
}
