import Foundation

extension JSONTextWriter {
    /// Writes a date as `JSONEncoder`'s `.iso8601` strategy does: a string such as `2026-12-01T09:00:00Z`, in UTC,
    /// seconds rounded down (``DateTimeText/string(from:fractionDigits:)``, written straight into the bytes).
    package mutating func iso8601(_ date: Date) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        DateTimeText.write(date, into: &bytes)
        bytes.append(UInt8(ascii: "\""))
    }
}
