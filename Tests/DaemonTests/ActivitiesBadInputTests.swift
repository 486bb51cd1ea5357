import Foundation
import HTTPTestSupport
import Testing

extension DaemonTests {
    @Suite("/v1/activities and /v1/device/push refuse bad input and change nothing", .serialized)
    struct ActivitiesBadInputTests {
        /// `ID` in a path or body is replaced by the started activity's id.
        static let refusals: [(method: String, path: String, body: String?, status: Int, code: String)] = [
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes""#, 400, "malformed_json"),
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes","attributes":"o-1","content":{"state":{}}}"#,
             400, "invalid_field"),
            ("POST", "/v1/activities", #"{"attributesType":"Nope","attributes":{},"content":{"state":{}}}"#,
             422, "unknown_attributes_type"),
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes","attributes":{"orderID":"o"},"content":{"state":{"minutesAway":"12","stage":"x"}}}"#,
             422, "undecodable_content_state"),
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes","attributes":{"order":"o"},"content":{"state":{"minutesAway":1,"stage":"x"}}}"#,
             422, "undecodable_attributes"),
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes","attributes":{"orderID":"o"},"content":{"state":{"minutesAway":1,"stage":"x"}},"startDate":"2026-02-30T09:00:00Z"}"#,
             422, "invalid_date"),
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes","attributes":{"orderID":"o"},"content":{"state":{"minutesAway":1,"stage":"x"}},"pushType":"channel"}"#,
             422, "invalid_channel"),
            ("POST", "/v1/activities", #"{"attributesType":"CourierAttributes","attributes":{"orderID":"o"},"content":{"state":{"minutesAway":1,"stage":"x"}},"pushType":"carrier-pigeon"}"#,
             400, "invalid_field"),
            ("POST", "/v1/activities/ID/update", #"{"content":{"state":{"minutesAway":"12","stage":"x"}}}"#,
             422, "undecodable_content_state"),
            ("POST", "/v1/activities/ID/update", #"{"content":{"state":{"minutesAway":1,"stage":"x"}},"timestamp":"2026-02-30T09:00:00Z"}"#,
             422, "invalid_date"),
            ("POST", "/v1/activities/ID/update", #"{"content":{"state":{"minutesAway":1,"stage":"x"}},"extra":1}"#,
             400, "unknown_field"),
            ("POST", "/v1/activities/ID/end", #"{"dismissalPolicy":{"kind":"after"}}"#, 400, "missing_field"),
            ("POST", "/v1/activities/ID/end", #"{"dismissalPolicy":{"kind":"later"}}"#, 400, "invalid_field"),
            ("POST", "/v1/activities/ID/end", #"{"dismissalPolicy":{"kind":"default","date":"2026-03-01T10:00:00Z"}}"#,
             400, "invalid_field"),
            ("GET", "/v1/activities/nope", nil, 404, "unknown_activity"),
            ("POST", "/v1/activities/nope/update", #"{"content":{"state":{}}}"#, 404, "unknown_activity"),
            ("POST", "/v1/activities/nope/end", "{}", 404, "unknown_activity"),
            ("GET", "/v1/activities/ID/screen?at=2026-02-30T00:00:00Z", nil, 422, "invalid_date"),
            ("GET", "/v1/activities/ID/screen?at=%00", nil, 422, "invalid_date"),
            ("GET", "/v1/activities/ID/screen?at=2027-01-01T00:00:00Z", nil, 422, "future_time"),
            ("GET", "/v1/activities?state=sleeping", nil, 400, "invalid_query"),
            ("GET", "/v1/activities?state=active,", nil, 400, "invalid_query"),
            ("GET", "/v1/activities?type=Nope", nil, 422, "unknown_attributes_type"),
            ("GET", "/v1/activities/nope/tokens", nil, 404, "unknown_activity"),
            ("POST", "/v1/activities/nope/tokens/rotate", nil, 404, "unknown_activity"),
            ("GET", "/v1/activity-types/Nope/tokens", nil, 404, "unknown_attributes_type"),
            ("POST", "/v1/activity-types/Nope/push-to-start-token/rotate", nil, 404, "unknown_attributes_type"),
            ("PUT", "/v1/activities/authorization", #"{"activitiesEnabled":"no","frequentPushesEnabled":false}"#,
             400, "invalid_field"),
            ("PUT", "/v1/activities/authorization", #"{"activitiesEnabled":false}"#, 400, "missing_field"),
        ]

        @Test("bad activity requests are refused with a stable code", arguments: refusals)
        func refused(_ refusal: (method: String, path: String, body: String?, status: Int, code: String)) async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let id = try #require(try await daemon.startCourier(pushType: "none")["id"] as? String)
            let before = try await snapshot(daemon, id)
            let response = try await daemon.request(refusal.method, refusal.path.replacingOccurrences(of: "ID", with: id),
                                                    json: refusal.body)
            expectRefusal(response, status: refusal.status, code: refusal.code)
            #expect(try await snapshot(daemon, id) == before)
        }

        @Test("a content state that does not decode names the path in the message")
        func decoderPath() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let id = try #require(try await daemon.startCourier(pushType: "none")["id"] as? String)
            let response = try await daemon.request("POST", "/v1/activities/\(id)/update",
                                                    json: #"{"content":{"state":{"minutesAway":"12","stage":"x"}}}"#)
            #expect((response.json["message"] as? String)?.contains(#"at "minutesAway""#) == true, "\(response.text)")
        }

        @Test("a NUL byte in the path is refused before any handler runs")
        func nulInPath() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let response = try await RawHTTPClient(daemon.address)
                .send(Data("GET /v1/activities/a\0b HTTP/1.1\r\nHost: x\r\n\r\n".utf8))
            expectRefusal(response, status: 400, code: "malformed_request")
        }

        static let update = #"{"aps":{"timestamp":1772355700,"event":"update","content-state":{"minutesAway":1,"stage":"x"}}}"#

        /// Pushes APNs itself refuses: `TOKEN` is replaced by the activity's token.
        static let pushRefusals: [(query: String, headers: [String], body: String, status: Int, reason: String)] = [
            ("?token=zz", [], update, 400, "BadDeviceToken"),
            ("?token=abc", [], update, 400, "BadDeviceToken"),
            ("?token=TOKEN", ["apns-priority: 7"], update, 400, "BadPriority"),
            ("?token=TOKEN", ["apns-priority: 05"], update, 400, "BadPriority"),
            ("?token=TOKEN", ["-apns-topic"], update, 400, "MissingTopic"),
            ("?token=TOKEN", ["apns-topic: com.example.app"], update, 400, "TopicDisallowed"),
            ("?token=TOKEN", ["apns-push-type: alert"], update, 400, "InvalidPushType"),
            ("", [], update, 400, "MissingDeviceToken"),
            ("?token=TOKEN", ["apns-channel-id: c"], update, 400, "MissingDeviceToken"),
            ("?token=TOKEN", [], #"{"aps":"#, 400, "BadPayload"),
            ("?token=TOKEN", [], #"{"alert":"hi"}"#, 400, "BadPayload"),
            ("?token=TOKEN", [], #"{"aps":{"timestamp":1,"pad":"\#(String(repeating: "x", count: 4100))"}}"#, 413,
             "PayloadTooLarge"),
        ]

        @Test("pushes APNs refuses are 400/413 with apns_reason, and nothing is recorded", arguments: pushRefusals)
        func pushRefused(_ refusal: (query: String, headers: [String], body: String, status: Int, reason: String))
            async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let started = try await daemon.startCourier()
            let id = try #require(started["id"] as? String)
            let token = try #require(started["pushToken"] as? String)
            let before = try await snapshot(daemon, id)
            var headers = ActivityPushHeaders.standard
            for header in refusal.headers {
                if header.hasPrefix("-") {
                    headers.removeAll { $0.0 == header.dropFirst() }
                    continue
                }
                let parts = header.split(separator: ":", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                headers.removeAll { $0.0 == parts[0] }
                headers.append((parts[0], parts[1]))
            }
            let response = try await daemon.request("POST", "/v1/device/push" + refusal.query.replacingOccurrences(
                of: "TOKEN", with: token), json: refusal.body, headers: headers)
            expectRefusal(response, status: refusal.status, code: refusal.status == 413 ? "payload_too_large" : "bad_push")
            #expect((response.json["detail"] as? [String: Any])?["apns_reason"] as? String == refusal.reason)
            #expect(try await snapshot(daemon, id) == before)
            #expect(try await daemon.request("GET", "/v1/device/pushes/unaddressed").objects("events").isEmpty)
        }

        /// The activity with its history, and the list: what a refused request must leave as it was.
        private func snapshot(_ daemon: InProcessDaemon, _ id: String) async throws -> [Data] {
            [try await daemon.request("GET", "/v1/activities/\(id)").body,
             try await daemon.request("GET", "/v1/activities").body,
             try await daemon.request("GET", "/v1/activities/authorization").body]
        }
    }
}
