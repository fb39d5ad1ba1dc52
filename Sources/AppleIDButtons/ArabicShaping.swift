/// Joins Arabic letters by replacing each with its contextual presentation form (Unicode
/// Arabic Presentation Forms-B, U+FE70–U+FEFF), the way a shaping engine would: there is no
/// HarfBuzz on the machine image, and Noto Sans Arabic maps these forms in its cmap.
enum ArabicShaping {
    /// How a letter joins its neighbours: right-joining letters connect only to the letter before
    /// them (in reading order); dual-joining ones to both sides.
    private enum Joining {
        case none, right, dual
    }

    /// The isolated form of each letter from U+0621, and how it joins. Forms follow in the order
    /// isolated, final, initial, medial.
    private static let forms: [UInt32: (isolated: UInt32, joining: Joining)] = [
        0x0621: (0xFE80, .none), 0x0622: (0xFE81, .right), 0x0623: (0xFE83, .right), 0x0624: (0xFE85, .right),
        0x0625: (0xFE87, .right), 0x0626: (0xFE89, .dual), 0x0627: (0xFE8D, .right), 0x0628: (0xFE8F, .dual),
        0x0629: (0xFE93, .right), 0x062A: (0xFE95, .dual), 0x062B: (0xFE99, .dual), 0x062C: (0xFE9D, .dual),
        0x062D: (0xFEA1, .dual), 0x062E: (0xFEA5, .dual), 0x062F: (0xFEA9, .right), 0x0630: (0xFEAB, .right),
        0x0631: (0xFEAD, .right), 0x0632: (0xFEAF, .right), 0x0633: (0xFEB1, .dual), 0x0634: (0xFEB5, .dual),
        0x0635: (0xFEB9, .dual), 0x0636: (0xFEBD, .dual), 0x0637: (0xFEC1, .dual), 0x0638: (0xFEC5, .dual),
        0x0639: (0xFEC9, .dual), 0x063A: (0xFECD, .dual), 0x0641: (0xFED1, .dual), 0x0642: (0xFED5, .dual),
        0x0643: (0xFED9, .dual), 0x0644: (0xFEDD, .dual), 0x0645: (0xFEE1, .dual), 0x0646: (0xFEE5, .dual),
        0x0647: (0xFEE9, .dual), 0x0648: (0xFEED, .right), 0x0649: (0xFEEF, .right), 0x064A: (0xFEF1, .dual),
    ]

    /// Lam followed by one of these alefs becomes one ligature (isolated form; final is +1).
    private static let lamAlef: [UInt32: UInt32] = [0x0622: 0xFEF5, 0x0623: 0xFEF7, 0x0625: 0xFEF9, 0x0627: 0xFEFB]

    /// The text in logical order with Arabic letters in their joined forms (still logical order).
    static func shape(_ text: String) -> [Unicode.Scalar] {
        let scalars = Array(text.unicodeScalars)
        var output: [Unicode.Scalar] = []
        var index = 0
        while index < scalars.count {
            let value = scalars[index].value
            guard let letter = forms[value] else {
                output.append(scalars[index])
                index += 1
                continue
            }
            let joinsBefore = index > 0 && joinsForward(scalars[index - 1])
            if value == 0x0644, index + 1 < scalars.count, let ligature = lamAlef[scalars[index + 1].value] {
                output.append(Unicode.Scalar(ligature + (joinsBefore ? 1 : 0)) ?? scalars[index])
                index += 2
                continue
            }
            let joinsAfter =
                letter.joining == .dual && index + 1 < scalars.count && forms[scalars[index + 1].value].map { $0.joining != .none } == true
            let offset: UInt32
            switch (letter.joining, joinsBefore, joinsAfter) {
            case (.none, _, _): offset = 0
            case (.right, true, _): offset = 1
            case (.right, false, _): offset = 0
            case (.dual, true, true): offset = 3
            case (.dual, false, true): offset = 2
            case (.dual, true, false): offset = 1
            case (.dual, false, false): offset = 0
            }
            output.append(Unicode.Scalar(letter.isolated + offset) ?? scalars[index])
            index += 1
        }
        return output
    }

    /// Whether the letter before connects to the one after it: only dual-joining letters do.
    private static func joinsForward(_ scalar: Unicode.Scalar) -> Bool {
        forms[scalar.value]?.joining == .dual
    }
}
