import AppleIDButtons
import AppleIDProtocol
import AppleIDServerApp
import ArgumentParser
import Foundation
import SignInWithApple

/// `siwa doctor`: checks the credentials, mints a client secret with them and checks it against
/// every rule Apple applies (``ClientSecretInspector``), explaining each failure.
///
/// Exit status: 0 every check passed, 1 a check failed, 2 usage error.
struct Doctor: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: DoctorOptions.configuration.abstract,
        usage: DoctorOptions.usageString(),
        discussion: "Exit status: 0 every check passed, 1 a check failed, 2 usage error.\n\n" + UsageErrors.optionsHelp(DoctorOptions.self))

    @Argument(parsing: .captureForPassthrough, help: .hidden) var arguments: [String] = []

    func run() async throws {
        try await UsageErrors.parse(DoctorOptions.self, arguments).diagnose()
    }
}

struct DoctorOptions: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "siwa doctor",
        abstract: "Check your Sign in with Apple credentials: mint a client secret and judge it by Apple's rules.")

    @Option(help: "The 10-character Team ID.") var teamID: String
    @Option(help: "The 10-character Key ID.") var keyID: String
    @Option(help: "The AuthKey_<KeyID>.p8 file.") var key: String
    @Option(help: "The client ID (bundle ID or Services ID).") var clientID: String
    @Option(help: "The aud claim.") var audience = "https://appleid.apple.com"
    @Option(help: "Lifetime, e.g. 300s, 30m, 12h, 180d (at most 15777000 s).") var lifetime = "180d"

    struct Check {
        var passed: Bool
        var name: String
        var explanation: String
    }

    func diagnose() async throws {
        let pem = try? String(contentsOfFile: key, encoding: .utf8)
        let seconds = DurationText.seconds(lifetime)
        let inputs = [
            Self.identifier("Team ID", teamID), Self.identifier("Key ID", keyID), keyFileName(), Self.keyFile(key, pem),
            Self.lifetime(lifetime, seconds), clientIDCheck(), audienceCheck(),
        ]
        print("Inputs")
        Self.show(inputs)
        var failures = inputs.filter { !$0.passed }.count
        // Said whatever the credentials' fate below (which may end the command early).
        let fontNotes = Self.buttonFontNotes()
        if !fontNotes.isEmpty {
            print("\nThis machine (the server's button images, not your credentials)")
            for note in fontNotes { print("  ! \(note)") }
        }

        let now = Date()
        print("\nClient secret")
        guard let pem, let seconds, seconds > 0, seconds <= ClientSecretClaims.maximumLifetime,
            let inspector = try? ClientSecretInspector(
                key: .privateKeyPEM(pem), clientID: clientID, teamID: teamID, keyID: keyID, audience: audience, clock: { now })
        else {
            print("  ✗ not minted: fix the key file and the lifetime above")
            throw ExitCode.failure
        }
        let secret: String
        do {
            let minter = try ClientSecretMinter(teamID: TeamID(rawValue: teamID), keyID: KeyID(rawValue: keyID), privateKeyPEM: pem)
            secret = try await minter.mint(clientID: ClientID(rawValue: clientID), audience: audience, issuedAt: now, lifetime: seconds)
        } catch {
            print("  ✗ not minted: \(error)")
            throw ExitCode.failure
        }
        let report = inspector.inspect(secret)
        print("  minted at \(Int(now.timeIntervalSince1970)), checked with the public key derived from \(key)")
        Self.show(report.rules.map { Check(passed: $0.passed, name: $0.name, explanation: $0.explanation) })
        failures += report.failures.count

        print(failures == 0 ? "\nAll checks passed." : "\n\(failures) check\(failures == 1 ? "" : "s") failed.")
        if failures > 0 { throw ExitCode.failure }
    }

    /// Font packages the server's button images need and this machine lacks (`fileExists`: tests
    /// stand for another machine). Not a credentials failure, so listed apart and not counted.
    static func buttonFontNotes(fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> [String] {
        ButtonFontFiles.installed.missing(fileExists: fileExists).map { source in
            "\(source.package) is not installed (\(source.path)): "
                + (source == ButtonFontFiles.installed.cjk
                    ? "siwa serve answers 503 for \(source.purpose) button images" : "\(source.purpose) button titles use another font")
                + " until `apt-get install \(source.package)`"
        }
    }

    static func show(_ checks: [Check]) {
        for check in checks { print("  \(check.passed ? "✓" : "✗") \(check.name): \(check.explanation)") }
    }

    static func identifier(_ what: String, _ value: String) -> Check {
        // The client-secret rulebook's shape, so that doctor and the inspector below agree.
        if ClientSecretRulebook.hasAppleIdentifierShape(value) {
            return Check(passed: true, name: what, explanation: "\"\(value)\" has 10 characters")
        }
        if value.count == 10 {
            return Check(passed: false, name: what, explanation: "\"\(value)\" is not a \(what): Apple's are 10 upper-case letters and digits")
        }
        let spaces = value.contains(where: \.isWhitespace) ? " (it contains white space: a copy-paste accident?)" : ""
        return Check(
            passed: false, name: what,
            explanation:
                "\"\(value)\" has \(value.count) characters; a \(what) has 10\(spaces). See Membership details or Keys in the developer account")
    }

    /// `AuthKey_<KeyID>.p8` names its Key ID: a mismatch means the wrong file or the wrong Key ID.
    func keyFileName() -> Check {
        let name = URL(fileURLWithPath: key).deletingPathExtension().lastPathComponent
        guard name.hasPrefix("AuthKey_") else {
            return Check(passed: true, name: "key file name", explanation: "not AuthKey_<KeyID>.p8; the Key ID cannot be cross-checked")
        }
        let fileKeyID = String(name.dropFirst("AuthKey_".count))
        return fileKeyID == keyID
            ? Check(passed: true, name: "key file name", explanation: "AuthKey_\(fileKeyID).p8 matches the Key ID")
            : Check(
                passed: false, name: "key file name",
                explanation:
                    "the file is Apple's key \(fileKeyID), but --key-id is \(keyID): a secret signed by one key and naming another is refused")
    }

    static func keyFile(_ path: String, _ pem: String?) -> Check {
        func fail(_ why: String) -> Check { Check(passed: false, name: "key file", explanation: why) }
        guard let pem else { return fail("cannot read \(path)") }
        if pem.contains("-----BEGIN EC PRIVATE KEY-----") {
            return fail("a SEC1 EC key, not Apple's PKCS#8 .p8 (convert: openssl pkcs8 -topk8 -nocrypt -in \(path))")
        }
        // The kit's loader names the mistake (escaped \n, a public key, another curve…): the
        // same words a server using the kit logs for this key.
        do {
            _ = try AppleCredentials(teamID: "", keyID: "", privateKeyPEM: pem).signingKey()
        } catch {
            return fail("\(error)")
        }
        return Check(passed: true, name: "key file", explanation: "a PKCS#8 PEM holding an EC P-256 private key")
    }

    static func lifetime(_ text: String, _ seconds: Int?) -> Check {
        let maximum = ClientSecretClaims.maximumLifetime
        func check(_ passed: Bool, _ explanation: String) -> Check { Check(passed: passed, name: "lifetime", explanation: explanation) }
        guard let seconds else { return check(false, "\(text) is not a number of seconds, or a number followed by s, m, h or d") }
        guard seconds > 0 else { return check(false, "\(text) is not a positive lifetime") }
        let days = String(format: "%.1f", Double(seconds) / 86_400)
        guard seconds <= maximum else {
            return check(false, "\(text) is \(seconds) s (\(days) days); Apple's maximum is 15777000 s (182.6 days)")
        }
        return check(true, "\(text) is \(seconds) s (\(days) days), within Apple's maximum of 15777000 s (182.6 days)")
    }

    func clientIDCheck() -> Check {
        guard !clientID.isEmpty, !clientID.contains(where: \.isWhitespace) else {
            return Check(passed: false, name: "client ID", explanation: "\"\(clientID)\" is empty or contains white space")
        }
        return Check(passed: true, name: "client ID", explanation: "\"\(clientID)\" (the sub; it must be the client_id sent, case-sensitive)")
    }

    func audienceCheck() -> Check {
        let apple = AppleEnvironment.production.clientSecretAudience
        let explanation =
            WireMatch.exact(audience, apple)
            ? "\(apple), Apple's" : "\(audience) is not Apple's \(apple): only an Apple ID server with that issuer accepts it"
        return Check(passed: true, name: "audience", explanation: explanation)
    }
}
