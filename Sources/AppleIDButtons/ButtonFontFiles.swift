import Foundation

/// Where the button titles' fonts are looked up: the font files and the Debian packages that
/// install them. Injectable, so that a test can stand for a machine without a package.
public struct ButtonFontFiles: Sendable {
    /// A font file, the Debian package that installs it and the scripts it is there for.
    public struct Source: Sendable, Hashable {
        public let path: String
        public let package: String
        public let purpose: String

        public init(path: String, package: String, purpose: String) {
            self.path = path
            self.package = package
            self.purpose = purpose
        }
    }

    /// Tried in order for each letter, after the locale's CJK face.
    public var sources: [Source]
    /// The Noto Sans CJK collection (one family per CJK locale).
    public var cjk: Source

    public init(sources: [Source], cjk: Source) {
        self.sources = sources
        self.cjk = cjk
    }

    static let notoDirectory = "/usr/share/fonts/truetype/noto/"

    /// Where a packaged `siwa` keeps the font it ships, under the folder that holds its `bin/` (the
    /// release tarball, the wheel and the npm package have this layout). DejaVu Sans: Latin, Greek,
    /// Cyrillic, Hebrew and Arabic titles draw on a machine with no font package.
    public static let bundledFontPath = "share/siwa/fonts/DejaVuSans.ttf"

    /// This machine's font packages, then the font shipped beside the running `siwa`, if it has one.
    public static let installed = system.addingBundledFont(executable: Bundle.main.executableURL)

    /// The files the Debian packages `fonts-noto-core`, `fonts-noto-cjk` and `fonts-dejavu-core` install.
    public static let system = ButtonFontFiles(
        sources: [
            Source(path: notoDirectory + "NotoSans-Regular.ttf", package: "fonts-noto-core", purpose: "Latin, Greek and Cyrillic"),
            Source(path: notoDirectory + "NotoSansArabic-Regular.ttf", package: "fonts-noto-core", purpose: "Arabic"),
            Source(path: notoDirectory + "NotoSansHebrew-Regular.ttf", package: "fonts-noto-core", purpose: "Hebrew"),
            Source(path: notoDirectory + "NotoSansThai-Regular.ttf", package: "fonts-noto-core", purpose: "Thai"),
            Source(path: "/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", package: "fonts-dejavu-core", purpose: "the last fallback"),
        ],
        cjk: Source(
            path: "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc", package: "fonts-noto-cjk",
            purpose: "Chinese, Japanese and Korean"))

    /// These files, then ``bundledFontPath`` under the folder above `executable`'s (symbolic links
    /// resolved) when that file exists: the last fallback, after the system's own DejaVu Sans.
    public func addingBundledFont(
        executable: URL?, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }
    ) -> ButtonFontFiles {
        guard let executable else { return self }
        let prefix = executable.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let path = prefix.appendingPathComponent(Self.bundledFontPath).path
        guard fileExists(path) else { return self }
        var files = self
        files.sources.append(Source(path: path, package: "fonts-dejavu-core", purpose: "the fallback shipped with siwa"))
        return files
    }

    /// The files that are not there (`siwa doctor` asks before any server starts).
    public func missing(fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> [Source] {
        (sources + [cjk]).filter { !fileExists($0.path) }
    }
}
