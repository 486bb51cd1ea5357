import DeepLinks

/// Decoding the names and values of a query string (`a+b%2Fc` → `a b/c`), without Foundation.
enum QueryText {
    /// `text` with `+` read as a space, then percent-decoded (the router's `PercentEncoding`). Text with a broken
    /// escape (`%zz`, a `%` at the end) or that decodes to invalid UTF-8 is kept as received, with only the `+`
    /// replaced: what `replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? spaced` gives, at a
    /// fraction of the cost.
    static func decode(_ text: String) -> String {
        var text = text
        return text.withUTF8 { bytes in
            if let decoded = try? PercentEncoding.decode(bytes, plusIsSpace: true) { return decoded }
            return String(decoding: bytes.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
        }
    }
}
