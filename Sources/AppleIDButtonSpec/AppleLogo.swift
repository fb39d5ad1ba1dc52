/// The Apple logo as a vector path drawn for this project (not Apple's artwork file): a body with
/// the bite on the right and a leaf tilted to the upper right, in a 100 × 125 box.
public enum AppleLogo {
    public static let width = 100.0
    public static let height = 125.0

    /// SVG path data (absolute `M`/`C`/`Z`), shared with the JS library's inline SVG.
    public static let svgPath = """
        M 50 36 C 56 36 64 30 74 30 C 83 30 90 34 95 41 C 86 47 82 54 82 64 C 82 75 89 83 98 86 \
        C 95 96 90 106 84 114 C 79 121 74 125 68 125 C 61 125 58 121 50 121 C 42 121 39 125 32 125 \
        C 25 125 19 118 13 109 C 4 95 0 80 0 66 C 0 43 14 30 29 30 C 37 30 44 36 50 36 Z \
        M 49 27 C 49 16 57 5 69 1 C 70 14 62 25 49 27 Z
        """
}
