import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/clock")
    struct ClockEndpointTests {
        @Test("read, set and advance a virtual clock")
        func virtualClock() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let clock = try await daemon.request("GET", "/v1/clock")
            #expect(clock.json["now"] as? String == "2026-03-01T09:00:00Z")
            #expect(clock.json["mode"] as? String == "virtual")
            #expect(clock.json["timeZone"] as? String == "Europe/Paris")

            _ = try await daemon.request("POST", "/v1/instances", json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            let set = try await daemon.request("PUT", "/v1/clock", json: #"{"now":"2026-03-05T12:00:00Z"}"#)
            #expect(set.status == 200)
            #expect(set.json["now"] as? String == "2026-03-05T12:00:00Z")
            // Setting the date runs what is due at the new time once, not every day on the way.
            #expect(set.objects("reloads").count == 1)

            let advanced = try await daemon.request("POST", "/v1/clock/advance", json: #"{"seconds":172800}"#)
            #expect(advanced.status == 200)
            #expect(advanced.json["now"] as? String == "2026-03-07T12:00:00Z")
            #expect(advanced.objects("reloads").compactMap { $0["ranAt"] as? String }
                        == ["2026-03-05T23:00:00Z", "2026-03-06T23:00:00Z"])
        }

        @Test("out-of-range and malformed clock changes are 400, dates outside the clock's format 422", arguments: [
            ("POST", "/v1/clock/advance", #"{"seconds":-1}"#, 400),
            ("POST", "/v1/clock/advance", #"{"seconds":172801}"#, 400),
            ("POST", "/v1/clock/advance", #"{}"#, 400),
            ("PUT", "/v1/clock", #"{"now":5}"#, 400),
            ("PUT", "/v1/clock", #"{"now":"1999-12-31T23:59:59Z"}"#, 422),
            ("PUT", "/v1/clock", #"{"now":"tomorrow"}"#, 422),
        ])
        func refusals(method: String, path: String, body: String, status: Int) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request(method, path, json: body)
            #expect(response.status == status)
            #expect(response.isErrorBody)
            #expect(try await daemon.request("GET", "/v1/clock").json["now"] as? String == "2026-03-01T09:00:00Z")
        }

        @Test("on the system clock, set and advance are 409 clock_not_virtual")
        func systemClock() async throws {
            let daemon = try InProcessDaemon(systemClock: true)
            defer { Task { await daemon.stop() } }
            #expect(try await daemon.request("GET", "/v1/clock").json["mode"] as? String == "system")
            let set = try await daemon.request("PUT", "/v1/clock", json: #"{"now":"2026-03-05T12:00:00Z"}"#)
            #expect(set.status == 409)
            #expect(set.errorCode == "clock_not_virtual")
            let advance = try await daemon.request("POST", "/v1/clock/advance", json: #"{"seconds":60}"#)
            #expect(advance.errorCode == "clock_not_virtual")
        }
    }
}
