import CFreeType
import Logging

/// The fonts the titles are drawn with, opened once with FreeType: Noto Sans for Latin, Greek and
/// Cyrillic, Noto Sans Arabic, Hebrew and Thai, Noto Sans CJK, and DejaVu Sans last. A missing
/// file is logged once and its letters fall back to the next font that has them (or a box);
/// ``missingPackage(for:)`` tells the server which locales would be boxes.
final class FontLibrary {
    typealias Source = ButtonFontFiles.Source

    let library: FT_Library
    private var faces: [(source: Source, face: FT_Face)] = []
    private var cjkFaces: [String: FT_Face] = [:]
    private var reportedGaps: Set<String> = []
    /// The packages of the files that would not open, in the order they were tried.
    private var missingPackages: [String] = []
    private let logger: Logger

    static let defaultSources = ButtonFontFiles.installed.sources
    static let cjkPath = ButtonFontFiles.installed.cjk.path
    /// The CJK collection's family for each locale that reads Han characters its own way.
    static let cjkFamilies = [
        "ja_JP": "Noto Sans CJK JP", "ko_KR": "Noto Sans CJK KR", "zh_CN": "Noto Sans CJK SC", "zh_TW": "Noto Sans CJK TC",
        "zh_HK": "Noto Sans CJK HK",
    ]

    init(sources: [Source] = defaultSources, cjkPath: String = cjkPath, logger: Logger) throws {
        self.logger = logger
        var library: FT_Library?
        guard FT_Init_FreeType(&library) == 0, let library else { throw ButtonRenderingError.fontEngineUnavailable }
        self.library = library
        for source in sources {
            if let face = open(source.path, family: nil) {
                faces.append((source, face))
            } else {
                if !missingPackages.contains(source.package) { missingPackages.append(source.package) }
                logger.warning(
                    "Button font missing; \(source.purpose) titles fall back to another font",
                    metadata: ["font": "\(source.path)", "package": "\(source.package)"])
            }
        }
        for (locale, family) in Self.cjkFamilies {
            if let face = open(cjkPath, family: family) { cjkFaces[locale] = face }
        }
        if cjkFaces.isEmpty {
            // No other font has their letters: these buttons are refused (503) instead of drawn as boxes.
            logger.warning(
                "Button font missing; install \(ButtonFontFiles.installed.cjk.package): until then Chinese, Japanese and Korean button images are answered 503",
                metadata: ["font": "\(cjkPath)", "package": "\(ButtonFontFiles.installed.cjk.package)"])
        }
    }

    deinit {
        for (_, face) in faces { FT_Done_Face(face) }
        for face in cjkFaces.values { FT_Done_Face(face) }
        FT_Done_FreeType(library)
    }

    /// The package to install before `title` in `locale` can be drawn without boxes, if one is missing:
    /// the CJK collection for a CJK locale without it, else the first missing package when a letter of
    /// the title is in no open font (Thai with only DejaVu Sans, the font a packaged `siwa` ships).
    func missingPackage(for locale: ButtonLocale, title: String) -> String? {
        if Self.cjkFamilies[locale.rawValue] != nil {
            return cjkFaces[locale.rawValue] == nil ? ButtonFontFiles.installed.cjk.package : nil
        }
        let drawn = title.unicodeScalars.allSatisfy { scalar in
            scalar.properties.isWhitespace || faces.contains { FT_Get_Char_Index($0.face, FT_ULong(scalar.value)) != 0 }
        }
        return drawn ? nil : (missingPackages.first ?? ButtonFontFiles.system.sources[0].package)
    }

    /// The first font with a glyph for `scalar` (the locale's CJK face before the others' CJK),
    /// and the glyph's index; else the first font's missing-glyph box, reported once per script.
    func glyph(for scalar: Unicode.Scalar, locale: ButtonLocale) -> (face: FT_Face, index: UInt32)? {
        var candidates = faces.map(\.face)
        let cjk = [cjkFaces[locale.rawValue], cjkFaces["ja_JP"]].compactMap { $0 }
        candidates.insert(contentsOf: cjk, at: min(1, candidates.count))
        for face in candidates {
            let index = FT_Get_Char_Index(face, FT_ULong(scalar.value))
            if index != 0 { return (face, index) }
        }
        let gap = "\(locale.rawValue)"
        if reportedGaps.insert(gap).inserted {
            logger.warning(
                "No installed font draws a letter of this locale's button title; it is drawn as a box",
                metadata: ["locale": "\(locale.rawValue)", "codepoint": "U+\(String(scalar.value, radix: 16, uppercase: true))"])
        }
        return candidates.first.map { ($0, 0) }
    }

    private func open(_ path: String, family: String?) -> FT_Face? {
        var face: FT_Face?
        guard FT_New_Face(library, path, 0, &face) == 0, var face else { return nil }
        guard let family else { return face }
        let count = Int(face.pointee.num_faces)
        for index in 0..<count {
            if index > 0 {
                FT_Done_Face(face)
                var next: FT_Face?
                guard FT_New_Face(library, path, FT_Long(index), &next) == 0, let next else { return nil }
                face = next
            }
            if let name = face.pointee.family_name, String(cString: name) == family { return face }
        }
        FT_Done_Face(face)
        return nil
    }
}

/// Why the renderer cannot start (FreeType would not initialize) or encode.
public enum ButtonRenderingError: Error, Sendable {
    case fontEngineUnavailable
    case pngEncodingFailed
}
