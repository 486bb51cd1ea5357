import Foundation
import JSON

extension V1 {
    /// `GET /v1/clock`: the engine's time.
    struct Clock: Encodable {
        var now: Date
        /// `system` or `virtual`.
        var mode: String
        /// The device's time zone (IANA identifier), which decides local midnights.
        var timeZone: String
    }

    /// `PUT /v1/clock`: set a virtual clock (forwards or backwards), then run what is due at the new time.
    /// `now` is read in ``ClockResource/settableFormat`` (UTC, years 2000 to 2199), not as any instant.
    struct SetClockRequest: Decodable {
        var now: Date

        private enum CodingKeys: String, CodingKey { case now }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            let text = try container.decode(String.self, forKey: .now)
            now = try DateField.date(text, format: ClockResource.settableFormat,
                                     at: container.codingPath + [CodingKeys.now])
        }
    }

    /// `POST /v1/clock/advance`: move a virtual clock forwards by `seconds` (0 to 2 days).
    struct AdvanceClockRequest: Decodable {
        var seconds: Double
    }

    /// `PUT /v1/clock` and `POST /v1/clock/advance`: the clock afterwards and the provider runs made on the way.
    struct ClockChange: Encodable {
        var now: Date
        var mode: String
        var timeZone: String
        var reloads: [Reload]
    }
}
