import Foundation
import JSON
import Testing

@Suite("Date-times: one strict reader, in agreement with its published pattern and with Foundation")
struct DateTimeTextTests {
    @Test("accepted", arguments: [
        ("2026-11-29T14:00:00Z", 1_795_960_800.0),
        ("2026-11-29T14:00:00.250Z", 1_795_960_800.25),
        ("2026-11-29T14:00:00.000000001Z", 1_795_960_800.000000001),
        ("2026-11-29T23:00:00+09:00", 1_795_960_800.0),
        ("2026-11-29T09:00:00-05:00", 1_795_960_800.0),
        ("2026-11-30T13:59:00+23:59", 1_795_960_800.0),
        ("2026-11-29T14:00:00-00:00", 1_795_960_800.0),
        ("2024-02-29T00:00:00Z", 1_709_164_800.0),
        ("2000-02-29T00:00:00Z", 951_782_400.0),
        ("1970-01-01T00:00:00Z", 0.0),
        ("9999-12-31T23:59:59Z", 253_402_300_799.0),
        ("1000-01-01T00:00:00Z", -30_610_224_000.0),
    ])
    func accepted(text: String, seconds: Double) throws {
        let date = try DateTimeText.date(from: text)
        #expect(date.timeIntervalSince1970 == seconds, "\(text)")
    }

    @Test("refused with the part at fault and its byte", arguments: [
        ("2026-02-30T09:00:00Z", DateTimeError(.day(30, month: 2, year: 2026, days: 28), at: 8)),
        ("2026-02-29T09:00:00Z", DateTimeError(.day(29, month: 2, year: 2026, days: 28), at: 8)),
        ("2100-02-29T09:00:00Z", DateTimeError(.day(29, month: 2, year: 2100, days: 28), at: 8)),
        ("2026-04-31T09:00:00Z", DateTimeError(.day(31, month: 4, year: 2026, days: 30), at: 8)),
        ("2026-01-00T09:00:00Z", DateTimeError(.day(0, month: 1, year: 2026, days: 31), at: 8)),
        ("2026-13-01T09:00:00Z", DateTimeError(.month(13), at: 5)),
        ("2026-00-01T09:00:00Z", DateTimeError(.month(0), at: 5)),
        ("2026-11-24T25:00:00Z", DateTimeError(.hour(25), at: 11)),
        ("2026-11-24T24:30:00Z", DateTimeError(.hour(24), at: 11)),
        ("2026-11-24T24:00:00Z", DateTimeError(.hour(24), at: 11)),
        ("2026-11-24T10:60:00Z", DateTimeError(.minute(60), at: 14)),
        ("2016-12-31T23:59:60Z", DateTimeError(.second(60), at: 17)),
        ("0000-01-01T00:00:00Z", DateTimeError(.year(0, allowed: 1000...9999), at: 0)),
        ("0999-12-31T23:59:59Z", DateTimeError(.year(999, allowed: 1000...9999), at: 0)),
        ("2026-11-24T10:00:00+24:00", DateTimeError(.offset(hours: 24, minutes: 0), at: 19)),
        ("2026-11-24T10:00:00+01:60", DateTimeError(.offset(hours: 1, minutes: 60), at: 19)),
        ("2026-11-24T10:00:00.1234567890Z", DateTimeError(.fraction(digits: 10), at: 20)),
        ("2026-11-24T10:00:00.Z", DateTimeError(.shape(expected: "a digit after '.'"), at: 20)),
        ("2026-11-24T10:00:00", DateTimeError(.shape(expected: "Z or an offset such as +01:00"), at: 19)),
        ("2026-11-24T10:00:00Z*", DateTimeError(.shape(expected: "the end of the text"), at: 20)),
        ("2026-11-24T10:00:00Z\u{0}", DateTimeError(.shape(expected: "the end of the text"), at: 20)),
        ("2026-11-24 10:00:00Z", DateTimeError(.shape(expected: "'T' between the date and the time"), at: 10)),
        ("2026-11-24t10:00:00z", DateTimeError(.shape(expected: "'T' between the date and the time"), at: 10)),
        ("2026-11-24T10:00:00+0100", DateTimeError(.shape(expected: "':' in the offset"), at: 22)),
        ("26-11-24T10:00:00Z", DateTimeError(.shape(expected: "a four-digit year"), at: 0)),
        ("+2026-11-24T10:00:00Z", DateTimeError(.shape(expected: "a four-digit year"), at: 0)),
        ("2026-1-24T10:00:00Z", DateTimeError(.shape(expected: "a two-digit month"), at: 5)),
        ("２０２６-11-24T10:00:00Z", DateTimeError(.shape(expected: "a four-digit year"), at: 0)),
        ("", DateTimeError(.shape(expected: "a four-digit year"), at: 0)),
    ])
    func refused(text: String, error: DateTimeError) {
        #expect(throws: error) { try DateTimeText.date(from: text) }
    }

    @Test("UTC-only formats refuse an offset, and years outside their range")
    func utcOnly() throws {
        let clock = DateTimeFormat(years: 2000...2199, zones: .utcOnly, yearPattern: "2[01][0-9]{2}")
        #expect(throws: DateTimeError(.offsetNotTaken, at: 19)) {
            try DateTimeText.date(from: "2026-11-24T10:00:00+01:00", format: clock)
        }
        #expect(throws: DateTimeError(.year(2200, allowed: 2000...2199), at: 0)) {
            try DateTimeText.date(from: "2200-01-01T00:00:00Z", format: clock)
        }
        #expect(try DateTimeText.date(from: "2199-12-31T23:59:59.5Z", format: clock).timeIntervalSince1970
            == 7_258_118_399.5)
    }

    @Test("messages name the rule broken")
    func messages() {
        let day = DateTimeError(.day(30, month: 2, year: 2026, days: 28), at: 8)
        #expect(day.description == "day 30 does not exist in February 2026, which has 28 days (byte 8)")
        #expect(DateTimeError(.hour(24), at: 11).reason.contains("write 00:00 of the next day"))
        #expect(DateTimeError(.second(60), at: 17).reason.contains("leap second"))
        #expect(DateTimeError(.year(0, allowed: 1000...9999), at: 0).reason == "year 0000 is outside 1000 to 9999")
    }

    @Test("every generated valid date-time reads as Foundation reads it")
    func agreesWithFoundation() throws {
        var generator = SeededGenerator(seed: 0x5eed_0001)
        for _ in 0..<4000 {
            let sample = DateTimeSample.valid(using: &generator, years: 1600...9999)
            let ours = try DateTimeText.date(from: sample.text)
            // Foundation's fractions are approximate (milliseconds, off by up to a millisecond): it reads the whole
            // seconds, and the fraction is compared with its digits.
            let foundation = try Date(sample.wholeSecondsText, strategy: Date.ISO8601FormatStyle())
            let difference = ours.timeIntervalSince1970 - foundation.timeIntervalSince1970
            #expect(abs(difference - sample.fraction) < 0.0001, "\(sample.text)")
        }
    }

    @Test("generated impossible dates: the pattern takes their shape, the reader refuses each, Foundation rolls forward")
    func impossibleDates() throws {
        var generator = SeededGenerator(seed: 0x5eed_0002)
        let pattern = try NSRegularExpression(pattern: DateTimeFormat.instant.pattern)
        var rolledByFoundation = 0
        for _ in 0..<2000 {
            let year = Int.random(in: 1600...9999, using: &generator)
            let month = Int.random(in: 1...12, using: &generator)
            let days = [31, year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30,
                        31, 30, 31][month - 1]
            guard days < 31 else { continue }
            let day = Int.random(in: (days + 1)...31, using: &generator)
            let text = String(format: "%04d-%02d-%02dT12:00:00Z", year, month, day)
            #expect(matches(pattern, text), "\(text)")
            #expect(throws: DateTimeError(.day(day, month: month, year: year, days: days), at: 8)) {
                try DateTimeText.date(from: text)
            }
            if (try? Date(text, strategy: Date.ISO8601FormatStyle())) != nil { rolledByFoundation += 1 }
        }
        // What the reader exists for: Foundation alone would have taken these.
        #expect(rolledByFoundation > 0)
    }

    @Test("the published pattern and the reader agree on generated texts, valid and mutated")
    func agreesWithPattern() throws {
        var generator = SeededGenerator(seed: 0x5eed_0003)
        for format in [DateTimeFormat.instant, .utcInstant,
                       DateTimeFormat(years: 2000...2199, zones: .utcOnly, yearPattern: "2[01][0-9]{2}")] {
            let pattern = try NSRegularExpression(pattern: format.pattern)
            for _ in 0..<6000 {
                var text = DateTimeSample.valid(using: &generator, years: 0...9999).text
                if Bool.random(using: &generator) { text = DateTimeSample.mutate(text, using: &generator) }
                let read: Bool
                do {
                    _ = try DateTimeText.date(from: text, format: format)
                    read = true
                } catch {
                    // The only texts the pattern takes and the reader refuses: a day past its month's end.
                    if case .day(let day, _, _, _) = error.problem, (29...31).contains(day) {
                        #expect(matches(pattern, text), "\(text)")
                        continue
                    }
                    read = false
                }
                #expect(read == matches(pattern, text), "\(text) with \(format.pattern)")
            }
        }
    }

    private func matches(_ pattern: NSRegularExpression, _ text: String) -> Bool {
        pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
