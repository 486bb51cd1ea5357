import Foundation
import HTTPTestSupport
import Testing

extension DaemonTests {
    @Suite("/v1/push/tokens, /v1/push/registrations and /v1/push/check", .serialized)
    struct PushTokensAPITests {
        static let first = String(repeating: "ab", count: 32)
        static let second = String(repeating: "cd", count: 32)

        @Test("a token stream's posts: created, unchanged, rotated; the slot keeps its history; invalid is final")
        func registration() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let slot = "/v1/push/tokens/push-to-start/phone-1/DeliveryAttributes"
            let created = try await daemon.request("PUT", slot, json: #"{"token":"\#(Self.first.uppercased())"}"#)
            #expect(created.status == 200, "\(created.text)")
            #expect(created.json["registration"] as? String == "created")
            #expect((created.json["token"] as? [String: Any])?["token"] as? String == Self.first)
            let again = try await daemon.request("PUT", slot, json: #"{"token":"\#(Self.first)"}"#)
            #expect(again.json["registration"] as? String == "unchanged")
            let rotated = try await daemon.request("PUT", slot, json: #"{"token":"\#(Self.second)"}"#)
            #expect(rotated.json["registration"] as? String == "rotated")
            #expect(rotated.json["previous"] as? String == Self.first)

            let history = try await daemon.request("GET", slot)
            #expect(history.objects("history").compactMap { $0["token"] as? String } == [Self.first, Self.second])
            #expect((history.json["current"] as? [String: Any])?["token"] as? String == Self.second)
            let device = try await daemon.request("GET", "/v1/push/tokens?device=phone-1")
            #expect(device.objects("tokens").compactMap { $0["token"] as? String } == [Self.second])
            // A device no registration could name (a control byte) is refused, as registering it is.
            expectRefusal(try await daemon.request("GET", "/v1/push/tokens?device=%08phone"), status: 422,
                          code: "invalid_identifier")

            let invalidated = try await daemon.request("POST", "/v1/push/registrations/\(Self.second)/invalidate",
                                                       json: #"{"reason":"Unregistered"}"#)
            #expect(invalidated.status == 200)
            #expect(invalidated.json["usable"] as? Bool == false)
            let refused = try await daemon.request("PUT", slot, json: #"{"token":"\#(Self.second)"}"#)
            #expect(refused.status == 409 && refused.errorCode == "token_invalidated")
            let after = try await daemon.request("GET", slot)
            #expect(after.json["current"] == nil)
            #expect(after.objects("history").count == 2)
        }

        @Test("channels: 201 when new, 200 again, 409 for another type or once closed, listed while open")
        func channels() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let body = #"{"attributesType":"DeliveryAttributes"}"#
            #expect(try await daemon.request("PUT", "/v1/push/channels/city-1", json: body).status == 201)
            #expect(try await daemon.request("PUT", "/v1/push/channels/city-1", json: body).status == 200)
            let other = try await daemon.request("PUT", "/v1/push/channels/city-1", json: #"{"attributesType":"X"}"#)
            #expect(other.status == 409 && other.errorCode == "channel_type_mismatch")
            #expect(try await daemon.request("GET", "/v1/push/channels").objects("channels").count == 1)
            let closed = try await daemon.request("POST", "/v1/push/channels/city-1/close", json: #"{"reason":"done"}"#)
            #expect(closed.json["open"] as? Bool == false)
            let again = try await daemon.request("PUT", "/v1/push/channels/city-1", json: body)
            #expect(again.status == 409 && again.errorCode == "channel_closed")
            #expect(try await daemon.request("GET", "/v1/push/channels").objects("channels").isEmpty)
            #expect(try await daemon.request("GET", "/v1/push/channels?closed=true").objects("channels").count == 1)
            let unknown = try await daemon.request("GET", "/v1/push/channels/nope")
            #expect(unknown.status == 404 && unknown.errorCode == "unknown_channel")
        }

        @Test("widget tokens carry their kinds; a token belongs to one slot")
        func widgetsAndSlots() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let put = try await daemon.request("PUT", "/v1/push/tokens/widgets/phone-2",
                                               json: #"{"token":"\#(Self.first)","kinds":["TaskList","Daily"]}"#)
            #expect((put.json["token"] as? [String: Any])?["widgetKinds"] as? [String] == ["TaskList", "Daily"])
            let elsewhere = try await daemon.request("PUT", "/v1/push/tokens/activities/act-1",
                                                     json: #"{"token":"\#(Self.first)","device":"phone-2"}"#)
            #expect(elsewhere.status == 409 && elsewhere.errorCode == "token_registered_elsewhere")
            let lookup = try await daemon.request("GET", "/v1/push/registrations/\(Self.first)")
            #expect(lookup.json["kind"] as? String == "widgets" && lookup.json["device"] as? String == "phone-2")
        }

        /// Each bad request, and the code it is refused with; none registers anything.
        static let refusals: [(method: String, path: String, body: String?, status: Int, code: String)] = [
            ("PUT", "/v1/push/tokens/widgets/phone-3", #"{"token":"abc"}"#, 400, "invalid_field"),
            ("PUT", "/v1/push/tokens/widgets/phone-3", #"{"token":"zz"}"#, 400, "invalid_field"),
            ("PUT", "/v1/push/tokens/widgets/phone-3", #"{"tok":"ab"}"#, 400, "missing_field"),
            ("PUT", "/v1/push/tokens/widgets/phone-3", #"{"token":"ab","tok":"ab"}"#, 400, "unknown_field"),
            ("PUT", "/v1/push/tokens/widgets/phone-3", #"{"token":"ab","kinds":[""]}"#, 422, "invalid_identifier"),
            ("PUT", "/v1/push/tokens/widgets/phone-3", #"{"token":"ab""#, 400, "malformed_json"),
            ("PUT", "/v1/push/tokens/activities/a%01b", #"{"token":"ab"}"#, 422, "invalid_identifier"),
            ("GET", "/v1/push/tokens", nil, 400, "invalid_query"),
            ("GET", "/v1/push/registrations/nothex", nil, 404, "unknown_push_token"),
            ("GET", "/v1/push/registrations/abab", nil, 404, "unknown_push_token"),
            ("POST", "/v1/push/registrations/abab/invalidate", #"{"reason":"x"}"#, 404, "unknown_push_token"),
            ("POST", "/v1/push/check", #"{"headers":{}}"#, 400, "invalid_field"),
            ("POST", "/v1/push/check", #"{"headers":{},"payload":{},"payloadText":"{}"}"#, 400, "invalid_field"),
            ("POST", "/v1/push/check", #"{"headers":{},"payload":{},"attributesType":"Nope"}"#, 422,
             "unknown_attributes_type"),
            ("POST", "/v1/push/check", #"{"headers":{},"payload":{},"lastTimestamp":"2026-02-30T00:00:00Z"}"#, 422,
             "invalid_date"),
        ]

        @Test("bad requests are refused with their code, and nothing is registered", arguments: refusals)
        func refusal(_ refusal: (method: String, path: String, body: String?, status: Int, code: String)) async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let response = try await daemon.request(refusal.method, refusal.path, json: refusal.body)
            #expect(response.status == refusal.status, "\(response.text)")
            #expect(response.errorCode == refusal.code, "\(response.text)")
            let slot = try await daemon.request("GET", "/v1/push/tokens/widgets/phone-3")
            #expect(slot.objects("history").isEmpty)
        }

        @Test("a widget push to the device's token reloads its placed widgets; to another token it is ignored")
        func widgetPush() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let placed = try await daemon.request("POST", "/v1/instances",
                                                  json: #"{"kind":"Daily","family":"systemSmall","id":"d"}"#)
            #expect(placed.status == 201, "\(placed.text)")
            let token = try #require(try await daemon.request("GET", "/v1/device/widget-push-token").json["token"] as? String)
            let headers = [("apns-push-type", "widgets"), ("apns-topic", "com.example.app.push-type.widgets")]
            let pushed = try await daemon.push(#"{"aps":{"content-changed":true}}"#, token: token, headers: headers)
            #expect(pushed.status == 200, "\(pushed.text)")
            #expect(pushed.json["applied"] as? Bool == true)
            #expect(pushed.objects("reloads").first?["reason"] as? String == "widget-push")
            #expect(pushed.objects("reloads").first?["chargedInstanceIds"] as? [String] == ["d"])
            let stranger = try await daemon.push(#"{"aps":{"content-changed":true}}"#, token: "00ff", headers: headers)
            #expect(stranger.json["applied"] as? Bool == false && stranger.json["reason"] as? String == "unknown_token")
            let wrongTopic = try await daemon.push(#"{"aps":{"content-changed":true}}"#, token: token,
                                                   headers: [("apns-push-type", "widgets"), ("apns-topic", "x.y")])
            #expect(wrongTopic.status == 400 && wrongTopic.errorCode == "bad_push")
        }

        @Test("the checker: a content-state with a string ETA is an error at its pointer; the fixed push passes")
        func check() async throws {
            let daemon = try InProcessDaemon()
            defer { Task { await daemon.stop() } }
            let headers = #"{"apns-push-type":"liveactivity","apns-topic":"com.example.app.push-type.liveactivity","apns-priority":"5"}"#
            let broken = try await daemon.request("POST", "/v1/push/check", json: """
                {"headers":\(headers),"attributesType":"DeliveryAttributes","payloadText":\
                "{\\"aps\\":{\\"event\\":\\"update\\",\\"timestamp\\":1772355660,\\"stale-date\\":1772359260,\
                \\"content-state\\":{\\"status\\":\\"onTheWay\\",\\"etaMinutes\\":\\"12\\",\\"estimatedArrival\\":794050200}}}"}
                """)
            #expect(broken.status == 200, "\(broken.text)")
            #expect(broken.json["ok"] as? Bool == false)
            let finding = broken.objects("findings").first { $0["code"] as? String == "undecodable_content_state" }
            #expect(finding?["pointer"] as? String == "/aps/content-state/etaMinutes")
            let fixed = try await daemon.request("POST", "/v1/push/check", json: """
                {"headers":\(headers),"attributesType":"DeliveryAttributes","payload":{"aps":{"event":"update",\
                "timestamp":1772355660,"stale-date":1772359260,\
                "content-state":{"status":"onTheWay","etaMinutes":12,"estimatedArrival":794050200}}}}
                """)
            #expect(fixed.json["ok"] as? Bool == true, "\(fixed.text)")
            #expect(fixed.json["errors"] as? Int == 0)
        }
    }
}
