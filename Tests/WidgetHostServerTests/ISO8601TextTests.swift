import Foundation
import Testing
@testable import WidgetHostServer
import WidgetHost

@Suite("API date-times: exactly the documented shape")
struct ISO8601TextTests {
    @Test("accepted", arguments: [
        ("2026-11-29T14:00:00Z", 1_795_960_800.0),
        ("2026-11-29T14:00:00.250Z", 1_795_960_800.25),
        ("2026-11-29T23:00:00+09:00", 1_795_960_800.0),
        ("2026-11-29T09:00:00-05:00", 1_795_960_800.0),
    ])
    func accepted(text: String, seconds: Double) throws {
        let date = try #require(ISO8601Text.date(from: text))
        #expect(abs(date.timeIntervalSince1970 - seconds) < 0.001)
    }

    @Test("refused, even where Foundation's parser alone would accept", arguments: [
        "2026-11-29T14:00:00Z*", "2026-11-29T14:00:00Zjunk", " 2026-11-29T14:00:00Z", "2026-11-29T14:00:00",
        "2026-11-29 14:00:00Z", "2026-11-29t14:00:00z", "2026-11-29T14:00:00.Z", "2026-11-29T14:00:00+0900",
        "2026-11-29T14:00:00.1234567890Z", "26-11-29T14:00:00Z", "",
    ])
    func refused(text: String) {
        #expect(ISO8601Text.date(from: text) == nil)
    }

    @Test("whole-second UTC times are read by hand exactly as Foundation reads them")
    func wholeSecondsAgreeWithFoundation() throws {
        var texts = ["1600-01-01T00:00:00Z", "1969-12-31T23:59:59Z", "2000-02-29T12:00:00Z", "2100-02-28T23:59:59Z",
                     "9999-12-31T23:59:59Z", "2026-02-29T00:00:00Z", "2026-04-31T00:00:00Z", "2026-11-29T24:00:00Z",
                     "2026-11-29T23:60:00Z", "2026-11-29T23:59:60Z", "1599-12-31T23:59:59Z", "2026-00-10T00:00:00Z"]
        for _ in 0..<3000 {
            let date = Date(timeIntervalSince1970: Double(Int64.random(in: -11_000_000_000...253_402_300_799)))
            texts.append(date.formatted(Date.ISO8601FormatStyle()))
        }
        for text in texts {
            let foundation = try? Date(text, strategy: Date.ISO8601FormatStyle())
            guard let byHand = UTCDateText.wholeSecondDate(text) else {
                // Left to Foundation: only dates it may read in its own way.
                continue
            }
            #expect(byHand == foundation, "\(text)")
        }
        #expect(UTCDateText.wholeSecondDate("2026-12-01T09:00:00Z") == Date(timeIntervalSince1970: 1_796_115_600))
        #expect(UTCDateText.wholeSecondDate("2026-02-29T00:00:00Z") == nil)
        #expect(UTCDateText.wholeSecondDate("2026-12-01T09:00:00+00:00") == nil)
        for malformed in ["2026-12-01T09:00:0xZ", "2026-12-01 09:00:00Z", "2026/12/01T09:00:00Z", "2026-12-01T09:00:00z",
                          "+026-12-01T09:00:00Z", "2026-12-01T09:00:00Zx", "", "２０２６-12-01T09:00:00Z"] {
            #expect(UTCDateText.wholeSecondDate(malformed) == nil, "\(malformed)")
        }
    }
}
