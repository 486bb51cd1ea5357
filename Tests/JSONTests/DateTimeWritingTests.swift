import Foundation
import JSON
import Testing

@Suite("Date-times written: read back to the same instant, and as Foundation writes them")
struct DateTimeWritingTests {
    @Test("examples", arguments: [
        (0.0, 0, "1970-01-01T00:00:00Z"),
        (1_795_960_800.25, 3, "2026-11-29T14:00:00.250Z"),
        (1_795_960_800.9999, 3, "2026-11-29T14:00:00.999Z"),
        (-0.5, 0, "1969-12-31T23:59:59Z"),
        (951_782_400.0, 0, "2000-02-29T00:00:00Z"),
        (253_402_300_799.0, 0, "9999-12-31T23:59:59Z"),
        (-62_135_596_800.0, 0, "0001-01-01T00:00:00Z"),
    ])
    func examples(seconds: Double, digits: Int, text: String) {
        #expect(DateTimeText.string(from: Date(timeIntervalSince1970: seconds), fractionDigits: digits) == text)
    }

    @Test("generated instants: written, read back, the same whole second; Foundation writes the same text")
    func roundTrip() throws {
        var generator = SeededGenerator(seed: 0x5eed_0004)
        for _ in 0..<5000 {
            let seconds = Double(Int64.random(in: -11_000_000_000...253_402_300_799, using: &generator))
            let date = Date(timeIntervalSince1970: seconds)
            let text = DateTimeText.string(from: date)
            #expect(try DateTimeText.date(from: text) == date, "\(text)")
            if seconds >= -11_676_096_000 {  // from 1600 on, where Foundation's calendar is Gregorian
                #expect(text == date.formatted(Date.ISO8601FormatStyle()), "\(seconds)")
            }
        }
    }
}
