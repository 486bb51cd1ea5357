import Foundation
import Testing
@testable import WidgetHostServer

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
}
