import Foundation
import WidgetHost

/// Parsing the API's date-times: `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, the shape the OpenAPI document's
/// `dateTimePattern` describes, and nothing before or after it.
///
/// Foundation's ISO 8601 parsers accept trailing characters (`2026-01-01T00:00:00Z*` parses), so the shape is
/// checked byte by byte first; a request whose date the schema refuses must be refused here too.
enum ISO8601Text {
    /// The instant `text` names, or nil when it is not exactly an ISO 8601 date-time with a time zone.
    static func date(from text: String) -> Date? {
        guard hasDateTimeShape(text) else { return nil }
        if let date = UTCDateText.wholeSecondDate(text) { return date }
        if let date = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return date }
        return try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true))
    }

    /// True when `text` is digits and separators in the date-time shape, with a `Z` or `±HH:MM` zone at the end.
    static func hasDateTimeShape(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        func digits(_ range: Range<Int>) -> Bool {
            range.upperBound <= bytes.count && range.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[$0]) }
        }
        func byte(_ index: Int, _ character: Unicode.Scalar) -> Bool {
            index < bytes.count && bytes[index] == UInt8(ascii: character)
        }
        guard digits(0..<4), byte(4, "-"), digits(5..<7), byte(7, "-"), digits(8..<10), byte(10, "T"),
              digits(11..<13), byte(13, ":"), digits(14..<16), byte(16, ":"), digits(17..<19) else { return false }
        var index = 19
        if byte(index, ".") {
            let start = index + 1
            index = start
            while digits(index..<(index + 1)) { index += 1 }
            guard index > start, index - start <= 9 else { return false }
        }
        if byte(index, "Z") { return index + 1 == bytes.count }
        guard byte(index, "+") || byte(index, "-") else { return false }
        return index + 6 == bytes.count && digits((index + 1)..<(index + 3)) && byte(index + 3, ":")
            && digits((index + 4)..<(index + 6))
    }
}
