// swift-tools-version:6.1
import PackageDescription

let package = Package(
    name: "sign-in-with-apple",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "siwa", targets: ["siwa"]),
        .executable(name: "juice", targets: ["juice"]),
        .library(name: "AppleIDProtocol", targets: ["AppleIDProtocol"]),
        .library(name: "AppleIDProvider", targets: ["AppleIDProvider"]),
        .library(name: "AppleIDStore", targets: ["AppleIDStore"]),
        // The in-memory store, for the fuzz harnesses (a package of their own) and anyone's tests of the engine.
        .library(name: "AppleIDMemoryStore", targets: ["AppleIDMemoryStore"]),
        .library(name: "AppleIDServer", targets: ["AppleIDServer"]),
        .library(name: "SignInWithApple", targets: ["SignInWithApple"]),
        .library(name: "SignInWithAppleHummingbird", targets: ["SignInWithAppleHummingbird"]),
        .library(name: "SignInWithAppleVapor", targets: ["SignInWithAppleVapor"]),
        .library(name: "SignInWithAppleTesting", targets: ["SignInWithAppleTesting"]),
        .library(name: "SignInWithAppleSQL", targets: ["SignInWithAppleSQL"]),
        .library(name: "SMTPWire", targets: ["SMTPWire"]),
    ],
    traits: [
        // On by default: Linux builds sign id_tokens with the system's OpenSSL 3 (libcrypto, Debian's
        // libssl-dev), which uses AVX-512 IFMA where the CPU has it. A trait cannot be on by platform,
        // so the dependency below is also limited to Linux: macOS builds always use swift-crypto.
        // `--disable-default-traits` builds without libcrypto on Linux too.
        .trait(name: "OpenSSLSigner", description: "Sign RS256 with the system's OpenSSL 3 libcrypto on Linux."),
        .default(enabledTraits: ["OpenSSLSigner"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-auth.git", from: "2.5.0"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/vapor/jwt-kit.git", from: "5.8.0"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/vapor/sqlite-kit.git", from: "4.5.2"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/vapor/vapor.git", from: "4.122.3"),
        // `siwa serve`'s settings: command line, environment, the file's `server:` section (YAML), defaults.
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: [.defaults, "YAML"]),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
    ],
    targets: [
        .target(
            name: "AppleIDProtocol",
            dependencies: [
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
            ]
        ),
        // SMTP on the wire (RFC 5321 commands and replies, DATA, RFC 5322 headers) as a pure state
        // machine: no sockets, no clock, no relay rules, so every byte of it is tested in process.
        .target(name: "SMTPWire"),
        // One SMTP client on swift-nio over SMTPWire: the relay's smarthost queue and Juice's mail.
        .target(
            name: "SMTPSending",
            dependencies: [
                "SMTPWire",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .systemLibrary(name: "CLibCrypto", pkgConfig: "libcrypto", providers: [.apt(["libssl-dev"]), .brew(["openssl@3"])]),
        // RS256 signing behind one protocol, swift-crypto's signer beside it (the engine's default, and
        // the reference the tests compare with). No system library: the kit and the emulator link this.
        .target(
            name: "RS256Signing",
            dependencies: [
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        // OpenSSL 3's libcrypto signer where the trait and the platform give it, and the choice of the
        // fastest: linked by `siwa serve`'s composition root only (AppleIDServerApp), which hands it to
        // the engine.
        .target(
            name: "RS256OpenSSL",
            dependencies: [
                "RS256Signing",
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux], traits: ["OpenSSLSigner"])),
            ]
        ),
        .target(
            name: "AppleIDProvider",
            dependencies: [
                "AppleIDProtocol",
                "RS256Signing",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // The e-mail sources of a team (spec §11): the senders its relay addresses take mail from, with
        // their SPF check and DKIM keys, and the store protocol they use. Edited by the console, read by
        // the relay: below both, so that neither links the other.
        .target(
            name: "AppleIDEmailSources",
            dependencies: [
                "AppleIDProvider",
                "AppleIDProtocol",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Development mode's fault switch (issue 20, `siwa check`): token answers spoiled on purpose and
        // development notifications signed wrong on purpose. The engine asks it through `TokenFaultSwitch`;
        // `siwa serve --development` and the emulator start the engine with it.
        .target(
            name: "AppleIDDevelopmentFaults",
            dependencies: ["AppleIDProvider", "AppleIDProtocol", .product(name: "Logging", package: "swift-log")]
        ),
        // Organizations (spec §21): what an administrator does in Apple School Manager or Apple Business
        // Manager (organizations, their access rule, their Managed Apple IDs), with the store protocol it
        // uses. The engine keeps what sign-in reads (the access rule) and the withdrawal pass. Below the
        // console and the emulator, which both create organizations.
        .target(
            name: "AppleIDOrganizations",
            dependencies: ["AppleIDProvider", "AppleIDProtocol"]
        ),
        // The private e-mail relay (spec §11): routing rules, mailboxes, DKIM and SPF, the smarthost
        // queue, and the store protocols they use. Above the engine, which it asks whose an address is.
        .target(
            name: "AppleIDRelay",
            dependencies: [
                "AppleIDProvider",
                "AppleIDEmailSources",
                "AppleIDProtocol",
                "SMTPWire",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The developer portal (spec §2): team members and invitations, identifiers, keys, e-mail
        // sources, quirks, transfers offered, and the environment declaration; with the store protocols
        // they use. Above the engine, whose registry it edits through the engine's operations.
        .target(
            name: "AppleIDConsole",
            dependencies: [
                "AppleIDOrganizations",
                "AppleIDProvider",
                "AppleIDEmailSources",
                "AppleIDProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The in-memory store (for the emulator and tests): every area's store protocols over one lock,
        // as AppleIDStore implements them over SQLite and PostgreSQL. Beside the engine, not in it.
        .target(
            name: "AppleIDMemoryStore",
            dependencies: ["AppleIDOrganizations", "AppleIDProvider", "AppleIDProtocol", "AppleIDEmailSources", "AppleIDRelay", "AppleIDConsole"]
        ),
        .target(
            name: "AppleIDStore",
            dependencies: [
                "AppleIDOrganizations",
                "AppleIDProvider",
                "AppleIDEmailSources",
                "AppleIDRelay",
                "AppleIDConsole",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ]
        ),
        // Owner-only files from the first byte, for the server's data folder and Juice's: a leaf both
        // point down at (Juice may not reach into server modules, and the kit's API is for sign-in).
        .target(name: "OwnerOnlyFiles"),
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .systemLibrary(name: "CLibPNG", pkgConfig: "libpng", providers: [.apt(["libpng-dev"])]),
        // The buttons' vocabulary (spec, locales and their titles): pure Swift, so the JS library's
        // endpoint can name the titles without linking the renderer's FreeType and libpng.
        .target(name: "AppleIDButtonSpec"),
        .target(
            name: "AppleIDButtons",
            dependencies: [
                "AppleIDButtonSpec",
                "CFreeType",
                "CLibPNG",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // The admin API's request and answer bodies, under their wire names: the server, `siwa`,
        // `siwa check` and the emulator share them, so a renamed field breaks the build, not a run.
        // Foundation and AppleIDProtocol only, so light clients link no server module.
        .target(name: "AppleIDAdminAPI", dependencies: ["AppleIDProtocol"]),
        .target(
            name: "AppleIDServer",
            dependencies: [
                "AppleIDAdminAPI",
                "AppleIDOrganizations",
                "AppleIDDevelopmentFaults",
                "AppleIDProvider",
                "AppleIDEmailSources",
                "AppleIDRelay",
                "AppleIDConsole",
                "SignInWithApple",
                "AppleIDButtonSpec",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdAuth", package: "hummingbird-auth"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
            ],
            resources: [.copy("Templates"), .copy("Locales"), .copy("Scripts"), .copy("OpenAPI")]
        ),
        // `siwa serve --config siwa.yaml`: the declaration file (YAML or JSON) read with its line numbers,
        // so that every refusal of the engine names the file and the line. Shared by the server app and `siwa`.
        .target(
            name: "EnvironmentFile",
            dependencies: [
                "AppleIDProvider",
                "AppleIDConsole",
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        // Sets Swift Concurrency's global-enqueue hook through the linker (the static binary's runtime
        // does not export it to `dlsym`), for `siwa serve`'s tasks on NIO's event loops. No library.
        .target(name: "CSwiftConcurrencyHook"),
        // The composition root of `siwa serve`: start-up, seeding, the SQL stores, the DNS adapter, the
        // background work it starts (PeriodicService, the HTTP notification sender), and what only a
        // served instance adds to the router (button images, `/metrics`). The emulator builds on
        // AppleIDServer alone, so a kit user's tests link none of this.
        .target(
            name: "AppleIDServerApp",
            dependencies: [
                "AppleIDServer",
                "SMTPWire",
                "SMTPSending",
                "AppleIDDevelopmentFaults",
                "AppleIDProvider",
                "AppleIDRelay",
                "AppleIDConsole",
                "AppleIDProtocol",
                "AppleIDStore",
                "AppleIDButtons",
                "OwnerOnlyFiles",
                "EnvironmentFile",
                "RS256OpenSSL",
                "CSwiftConcurrencyHook",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                // The notification sender (Notifications/HTTPNotificationSender) posts with it.
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .target(
            name: "SignInWithApple",
            dependencies: [
                "AppleIDProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .target(
            name: "SignInWithAppleHummingbird",
            dependencies: [
                "SignInWithApple",
                "AppleIDProtocol",
                .product(name: "Hummingbird", package: "hummingbird"),
            ]
        ),
        .target(
            name: "SignInWithAppleVapor",
            dependencies: [
                "SignInWithApple",
                "AppleIDProtocol",
                .product(name: "Vapor", package: "vapor"),
            ]
        ),
        .target(
            name: "SignInWithAppleSQL",
            dependencies: [
                "SignInWithApple",
                .product(name: "SQLKit", package: "sql-kit"),
            ]
        ),
        .target(
            name: "SignInWithAppleTesting",
            dependencies: [
                "AppleIDEmailSources",
                "AppleIDMemoryStore",
                "SignInWithApple",
                "AppleIDOrganizations",
                "AppleIDDevelopmentFaults",
                "AppleIDProvider",
                "AppleIDRelay",
                "AppleIDConsole",
                "AppleIDServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                // signIn(through:) drives an app's routes with Hummingbird's test client.
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        // `siwa check`: drives an app as browsers would, against a server's admin API. Light: no
        // server modules, so the verb is a thin wrapper and tests link only what they start.
        .target(
            name: "SiwaCheck",
            dependencies: [
                "AppleIDAdminAPI",
                "AppleIDProtocol",
                // Already linked through AppleIDProtocol's JWTKit: the checker's own key for notify.unknown-key.
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ]
        ),
        .executableTarget(
            name: "siwa",
            dependencies: [
                "AppleIDAdminAPI",
                "AppleIDConsole",
                "SiwaCheck",
                "AppleIDServerApp",
                "AppleIDServer",
                "AppleIDButtons",
                "AppleIDProtocol",
                "SignInWithApple",
                "OwnerOnlyFiles",
                "EnvironmentFile",
                .product(name: "Yams", package: "Yams"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .target(
            name: "JuiceApp",
            dependencies: [
                "AppleIDProtocol",
                "SignInWithApple",
                "SignInWithAppleHummingbird",
                "SignInWithAppleSQL",
                "SMTPSending",
                "OwnerOnlyFiles",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdBcrypt", package: "hummingbird-auth"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
            ],
            resources: [.copy("Templates"), .copy("Scripts")]
        ),
        .executableTarget(
            name: "juice",
            dependencies: [
                "JuiceApp",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        .executableTarget(
            name: "rsa-sign-rate",
            dependencies: [
                "RS256Signing",
                "RS256OpenSSL",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/RSASignRate"
        ),
        .executableTarget(
            name: "siwa-verify-benchmark",
            dependencies: [
                "SignInWithApple",
                "AppleIDProtocol",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ],
            path: "Benchmarks/VerifyBenchmark"
        ),
        // What several test targets share (issue 39, step 3): the engine with the server's test fixtures
        // (TestEngine; the server's tests add the router on top, TestServer), the fixture keys,
        // recorders of logs, notifications and SQL statements, a notification receiver and an SMTP
        // client on 127.0.0.1. A regular target, because a test target cannot depend on another; in
        // no product. Engine level: no server module.
        .target(
            name: "ServerTestSupport",
            dependencies: [
                "AppleIDConsole",
                "AppleIDDevelopmentFaults",
                "AppleIDMemoryStore",
                "AppleIDProtocol",
                "AppleIDProvider",
                "AppleIDRelay",
                "AppleIDStore",
                "SignInWithApple",
                // The tiny SMTP client of the listener's tests (Relay/TinySMTPClient).
                "SMTPWire",
                .product(name: "CoreMetrics", package: "swift-metrics"),
                .product(name: "Crypto", package: "swift-crypto"),
                // A notification receiver on 127.0.0.1 (Loopback/LoopbackServer).
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
            ],
            path: "Tests/ServerTestSupport",
            // The keys are read from their path (Fixtures.directory), not bundled.
            exclude: ["Fixtures"]
        ),
        .testTarget(
            name: "AppleIDProtocolTests",
            dependencies: [
                "AppleIDProtocol",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
            ]
        ),
        .testTarget(name: "SMTPWireTests", dependencies: ["SMTPWire"]),
        .testTarget(name: "AppleIDAdminAPITests", dependencies: ["AppleIDAdminAPI"]),
        .testTarget(
            name: "RS256SigningTests",
            dependencies: [
                "RS256Signing",
                "RS256OpenSSL",
                // To verify swift-crypto's signatures with libcrypto itself, not only the other way round.
                .target(name: "CLibCrypto", condition: .when(platforms: [.linux], traits: ["OpenSSLSigner"])),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "SMTPSendingTests",
            dependencies: [
                "SMTPSending", "SMTPWire", .product(name: "NIOCore", package: "swift-nio"), .product(name: "NIOPosix", package: "swift-nio"),
            ]
        ),
        .testTarget(
            name: "AppleIDProviderTests",
            dependencies: [
                "AppleIDMemoryStore",
                "AppleIDEmailSources",
                "AppleIDOrganizations",
                "AppleIDDevelopmentFaults",
                "AppleIDProvider",
                // The relay's rules are tested on the engine's harness (Relay/), and invitations go by relay mail.
                "AppleIDRelay",
                "AppleIDConsole",
                "RS256Signing",
                "RS256OpenSSL",
                // The engine's client-secret rules agree with the kit's minter and inspector (Engine/ClientSecretAgreementTests).
                "SignInWithApple",
                // The test engine (Notifications/), the key prober (Console/DeclarationKeyTableTests), and a restart
                // of notification delivery on an SQLite store (Notifications/NotificationDeliveryTests).
                "ServerTestSupport",
                "AppleIDStore",
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
        .testTarget(
            name: "EnvironmentFileTests",
            dependencies: ["AppleIDMemoryStore", "EnvironmentFile", "AppleIDOrganizations", "AppleIDProvider", "AppleIDConsole"]
        ),
        // The emulator (SignInWithAppleTesting) as a user's tests meet it: start, sign-in through the
        // app's routes, refusals, mail, notifications, keychain, Managed Apple IDs, shutdown.
        .testTarget(
            name: "SignInWithAppleTestingTests",
            dependencies: [
                "SignInWithApple",
                "SignInWithAppleTesting",
                "SignInWithAppleHummingbird",
                "AppleIDProtocol",
                "AppleIDProvider",
                "AppleIDConsole",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "SignInWithAppleTests",
            dependencies: [
                "SignInWithApple",
                "SignInWithAppleTesting",
                "SignInWithAppleHummingbird",
                "SignInWithAppleSQL",
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "JuiceTests",
            dependencies: [
                "JuiceApp",
                // Only to write demo.json as `siwa serve` does (LocalAppleIDServerTests).
                "AppleIDServerApp",
                "SignInWithApple",
                "SignInWithAppleTesting",
                "AppleIDProvider",
                "AppleIDRelay",
                "AppleIDConsole",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
        .testTarget(
            name: "AppleIDStoreTests",
            dependencies: [
                "AppleIDMemoryStore",
                "AppleIDStore", "AppleIDOrganizations", "AppleIDProvider", "AppleIDEmailSources", "AppleIDRelay", "AppleIDConsole",
                // The relay's and the withdrawal's statements on SQLite, driven through the test engine.
                "ServerTestSupport",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
            ]
        ),
        .testTarget(
            name: "AppleIDButtonsTests",
            dependencies: [
                "AppleIDButtons",
                // The log recorder of the missing fonts' tests (ButtonFontFallbackTests).
                "ServerTestSupport",
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // `siwa serve`'s composition root alone: its settings, start-up, the DNS resolver, the port check,
        // the event-loop executor, the background work (PeriodicService), the HTTP notification sender
        // and the SMTP listener.
        .testTarget(
            name: "AppleIDServerAppTests",
            dependencies: [
                "AppleIDServerApp",
                "AppleIDServer",
                "AppleIDStore",
                "AppleIDProvider",
                "AppleIDConsole",
                "AppleIDEmailSources",
                "AppleIDProtocol",
                "AppleIDRelay",
                "SMTPWire",
                "OwnerOnlyFiles",
                "RS256Signing",
                "RS256OpenSSL",
                "ServerTestSupport",
                // The notifications the sender posted, verified with the kit (Notifications/LoopbackReceiverTests).
                "SignInWithApple",
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "AppleIDServerTests",
            dependencies: [
                "AppleIDMemoryStore",
                "AppleIDEmailSources",
                "AppleIDAdminAPI",
                "AppleIDServer",
                "AppleIDRelay",
                "AppleIDOrganizations",
                "AppleIDDevelopmentFaults",
                "AppleIDConsole",
                "SMTPWire",
                "AppleIDServerApp",
                "AppleIDButtons",
                "AppleIDStore",
                "OwnerOnlyFiles",
                "EnvironmentFile",
                "ServerTestSupport",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "SQLiteKit", package: "sqlite-kit"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                // Only to read the admin API's OpenAPI document (AdminOpenAPITests).
                .product(name: "Yams", package: "Yams"),
            ]
        ),
        .testTarget(
            name: "SignInWithAppleVaporTests",
            dependencies: [
                "SignInWithAppleVapor",
                // siwa check against a minimal app on the routes: SiwaCheck is light (no server module).
                "SiwaCheck",
                "SignInWithAppleTesting",
                "AppleIDProvider",
                "AppleIDConsole",
                "AppleIDProtocol",
                .product(name: "VaporTesting", package: "vapor"),
            ]
        ),
        // Every Swift block of the DocC catalogs and the README, verbatim, compiled (and the emulator's run).
        .testTarget(
            name: "DocumentationExampleTests",
            dependencies: [
                "AppleIDProtocol",
                "SignInWithApple",
                "SignInWithAppleTesting",
                "SignInWithAppleHummingbird",
                "SignInWithAppleVapor",
                "SignInWithAppleSQL",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "Vapor", package: "vapor"),
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "Logging", package: "swift-log"),
            ]
        ),
        // Reads Package.swift and the checkouts' manifests: no dependency, so it builds in seconds.
        .testTarget(name: "PackageManifestTests"),
        .testTarget(
            name: "SiwaCheckTests",
            dependencies: [
                "SiwaCheck",
                "SignInWithAppleTesting",
                "AppleIDProtocol",
                "AppleIDProvider",
                "JuiceApp",
                "SignInWithApple",
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "JWTKit", package: "jwt-kit"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .testTarget(
            name: "SiwaTests",
            dependencies: [
                "siwa",
                "SignInWithApple",
                "AppleIDProtocol",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
            ]
        ),
    ]
)
