/// A form field that holds a list: one entry a line, or entries separated by commas (Apple's portal
/// takes both). Lines are split on `Character.isNewline`, so a browser's CRLF (one `Character` in
/// Swift, equal neither to `"\n"` nor to `"\r"`) separates entries as `"\n"` does.
public enum ListField {
    /// The trimmed, non-empty entries of `text`.
    public static func entries(_ text: String?) -> [String] {
        (text ?? "").split(whereSeparator: { $0.isNewline || $0 == "," })
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
