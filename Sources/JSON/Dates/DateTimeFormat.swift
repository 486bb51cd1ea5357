/// Which date-times a reader takes: the shape is always RFC 3339's `date-time`
/// (`YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`, upper-case `T` and `Z`, 1 to 9 fraction digits); a format narrows
/// the years and the zones.
///
/// ``pattern`` is the regular expression the API's OpenAPI document publishes for the format. It states the shape and
/// every field's range; what a regular expression cannot say (a day past its month's end, 29 February outside leap
/// years) only the parser refuses. A test holds the two to that agreement.
public struct DateTimeFormat: Sendable, Hashable {
    /// The zones a format takes after the time.
    public enum Zones: Sendable, Hashable {
        /// Only `Z` (UTC).
        case utcOnly
        /// `Z`, or a numeric offset `±HH:MM` from `-23:59` to `+23:59` (`-00:00` is UTC).
        case utcOrOffset
    }

    /// The years the format takes (proleptic Gregorian calendar).
    public let years: ClosedRange<Int>
    /// The zones the format takes.
    public let zones: Zones
    /// The years as a regular expression over four digits; must match exactly the four-digit texts of ``years``.
    public let yearPattern: String

    /// Creates a format.
    /// - Parameters:
    ///   - years: The years taken, within 0...9999.
    ///   - zones: The zones taken.
    ///   - yearPattern: ``years`` as a regular expression over four digits, for ``pattern``.
    public init(years: ClosedRange<Int>, zones: Zones, yearPattern: String) {
        precondition(years.lowerBound >= 0 && years.upperBound <= 9999, "a date-time's year has four digits")
        self.years = years
        self.zones = zones
        self.yearPattern = yearPattern
    }

    /// Any instant of years 1000 to 9999, in UTC or with an offset: what the API takes wherever it takes a date.
    public static let instant = DateTimeFormat(years: 1000...9999, zones: .utcOrOffset, yearPattern: "[1-9][0-9]{3}")

    /// The same instants, in UTC only.
    public static let utcInstant = DateTimeFormat(years: 1000...9999, zones: .utcOnly, yearPattern: "[1-9][0-9]{3}")

    /// The anchored regular expression (ECMA-262 and PCRE alike) for the texts of this format.
    public var pattern: String {
        let zone = switch zones {
        case .utcOnly: "Z"
        case .utcOrOffset: "(Z|[+-]([01][0-9]|2[0-3]):[0-5][0-9])"
        }
        return "^" + yearPattern
            + #"-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](\.[0-9]{1,9})?"#
            + zone + "$"
    }

    /// An example text of this format, for error messages.
    public var example: String {
        let year = years.contains(2026) ? 2026 : years.lowerBound
        let text = String(repeating: "0", count: 4 - String(year).count) + String(year) + "-01-01T09:30:00Z"
        return text
    }
}
