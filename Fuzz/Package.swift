// swift-tools-version:5.4
// Tools version 5.4 on purpose: from 5.5 on, SwiftPM renames an executable's entry point and links
// `main` to it, which a libFuzzer harness (no `main` of its own, `-parse-as-library`) does not have.
// The harnesses are still compiled in the Swift 6 language mode (`-swift-version 6` below).
import PackageDescription

let swift6: [SwiftSetting] = [.unsafeFlags(["-swift-version", "6"])]

func harness(_ name: String, _ products: [Target.Dependency]) -> Target {
    .executableTarget(name: name, dependencies: ["FuzzSupport"] + products, swiftSettings: swift6)
}

let package = Package(
    name: "sign-in-with-apple-fuzz",
    dependencies: [
        .package(name: "sign-in-with-apple", path: "..")
    ],
    targets: [
        .target(name: "FuzzSupport", swiftSettings: swift6),
        harness(
            "FuzzForm",
            [
                .product(name: "AppleIDServer", package: "sign-in-with-apple"),
                .product(name: "AppleIDProtocol", package: "sign-in-with-apple"),
            ]),
        harness(
            "FuzzClaims",
            [
                .product(name: "SignInWithApple", package: "sign-in-with-apple"),
                .product(name: "AppleIDProtocol", package: "sign-in-with-apple"),
            ]),
        harness(
            "FuzzToken",
            [
                .product(name: "SignInWithApple", package: "sign-in-with-apple"),
                .product(name: "AppleIDProtocol", package: "sign-in-with-apple"),
            ]),
        harness(
            "FuzzKeySet",
            [
                .product(name: "SignInWithApple", package: "sign-in-with-apple")
            ]),
        harness(
            "FuzzClientSecret",
            [
                .product(name: "AppleIDProvider", package: "sign-in-with-apple"),
                .product(name: "AppleIDMemoryStore", package: "sign-in-with-apple"),
                .product(name: "AppleIDProtocol", package: "sign-in-with-apple"),
                .product(name: "SignInWithApple", package: "sign-in-with-apple"),
            ]),
        harness(
            "FuzzSMTP",
            [
                .product(name: "SMTPWire", package: "sign-in-with-apple")
            ]),
        harness(
            "FuzzNotification",
            [
                .product(name: "SignInWithApple", package: "sign-in-with-apple"),
                .product(name: "AppleIDProtocol", package: "sign-in-with-apple"),
            ]),
    ]
)
