/// Puts a title into the order its glyphs are drawn, left to right. Our titles are one line with
/// at most one embedded left-to-right word ("Apple"), so the Unicode bidirectional algorithm
/// reduces to: in a right-to-left paragraph, reverse the runs, keeping each left-to-right run's
/// letters in order; combining marks stay with their base letter.
enum VisualOrder {
    static func reorder(_ scalars: [Unicode.Scalar], rightToLeft: Bool) -> [Unicode.Scalar] {
        guard rightToLeft else { return scalars }
        // Clusters: a base and its marks.
        var clusters: [[Unicode.Scalar]] = []
        for scalar in scalars {
            if isMark(scalar), !clusters.isEmpty {
                clusters[clusters.count - 1].append(scalar)
            } else {
                clusters.append([scalar])
            }
        }
        // Runs of left-to-right letters (with the spaces between them) keep their order.
        var runs: [[[Unicode.Scalar]]] = []
        var index = 0
        while index < clusters.count {
            if isLeftToRight(clusters[index][0]) {
                var end = index
                var scan = index
                while scan < clusters.count, isLeftToRight(clusters[scan][0]) || clusters[scan][0] == " " {
                    if isLeftToRight(clusters[scan][0]) { end = scan }
                    scan += 1
                }
                runs.append(Array(clusters[index...end]))
                index = end + 1
            } else {
                runs.append([clusters[index]])
                index += 1
            }
        }
        return runs.reversed().flatMap { $0.flatMap { $0 } }
    }

    static func isMark(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark: return true
        default: return false
        }
    }

    /// Latin, Greek, Cyrillic letters and digits: strongly left to right in our titles.
    private static func isLeftToRight(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.properties.isAlphabetic || scalar.properties.numericType != nil) && scalar.value < 0x0590
    }
}
