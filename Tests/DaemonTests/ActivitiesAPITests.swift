import Foundation
import Testing

extension DaemonTests {
    @Suite("/v1/activities and /v1/device/push", .serialized)
    struct ActivitiesAPITests {
        @Test("start, update, pushes applied and ignored, staleness on the clock")
        func updatesAndPushes() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let started = try await daemon.startCourier(staleDate: "2026-03-01T10:00:00Z")
            let id = try #require(started["id"] as? String)
            let token = try #require(started["pushToken"] as? String)
            #expect(started["state"] as? String == "active")
            #expect(started["requestedAt"] as? String == "2026-03-01T09:00:00Z")

            let updated = try await daemon.request("POST", "/v1/activities/\(id)/update", json: """
                {"content":{"state":{"minutesAway":15,"stage":"cooking"},"staleDate":"2026-03-01T10:00:00Z"}}
                """)
            #expect(updated.status == 200, "\(updated.text)")
            #expect(updated.json["outcome"] as? String == "applied")

            // A minute later the server pushes; its timestamp is the clock's.
            try await daemon.advance(seconds: 60)
            let pushed = try await daemon.push("""
                {"aps":{"timestamp":\(apnsTime(60)),"event":"update","content-state":{"minutesAway":10,"stage":"on the way"},\
                "stale-date":\(apnsTime(3600))}}
                """, token: token)
            #expect(pushed.status == 200, "\(pushed.text)")
            #expect(pushed.json["applied"] as? Bool == true)
            #expect(pushed.json["event"] as? String == "update")
            #expect(pushed.firstPushResult?["activityId"] as? String == id)
            #expect(pushed.firstPushResult?["outcome"] as? String == "applied")

            let older = try await daemon.push("""
                {"aps":{"timestamp":\(apnsTime(30)),"event":"update","content-state":{"minutesAway":1,"stage":"late"}}}
                """, token: token)
            #expect(older.status == 200)
            #expect(older.json["applied"] as? Bool == false)
            #expect(older.firstPushResult?["reason"] as? String == "stale_timestamp")

            let mistyped = try await daemon.push("""
                {"aps":{"timestamp":\(apnsTime(90)),"event":"update","content-state":{"minutesAway":"12","stage":"x"}}}
                """, token: token)
            #expect(mistyped.firstPushResult?["reason"] as? String == "undecodable_content_state")
            #expect((mistyped.firstPushResult?["detail"] as? String)?.contains("minutesAway") == true)

            let shown = try await daemon.request("GET", "/v1/activities/\(id)")
            let content = try #require(shown.json["content"] as? [String: Any])
            #expect((content["state"] as? [String: Any])?["minutesAway"] as? Int == 10)
            let history = shown.objects("history")
            #expect(history.compactMap { ($0["ignored"] as? [String: Any])?["reason"] as? String }
                    == ["stale_timestamp", "undecodable_content_state"])

            // 10:00 is the stale date: past it, the Lock Screen shows the content as stale.
            try await daemon.advance(seconds: 3700)
            let screen = try await daemon.request("GET", "/v1/activities/\(id)/screen")
            #expect(screen.status == 200, "\(screen.text)")
            #expect(screen.json["isStale"] as? Bool == true)
            #expect(screen.json["state"] as? String == "stale")

            let chart = try await daemon.request("GET", "/v1/activities/\(id)/chart.svg")
            #expect(chart.status == 200)
            #expect(chart.header("Content-Type")?.hasPrefix("image/svg+xml") == true)
            #expect(chart.text.contains("stale_timestamp") && chart.text.contains("undecodable_content_state"))
            let badUntil = try await daemon.request("GET", "/v1/activities/\(id)/chart.svg?until=2026-02-30T00:00:00Z")
            #expect(badUntil.status == 422 && badUntil.json["code"] as? String == "invalid_date")
            let unknown = try await daemon.request("GET", "/v1/activities/nope/chart.svg")
            #expect(unknown.status == 404 && unknown.json["code"] as? String == "unknown_activity")
            #expect(screen.json["isVisible"] as? Bool == true)
            let before = try await daemon.request("GET", "/v1/activities/\(id)/screen?at=2026-03-01T09:00:30Z")
            #expect(before.json["isStale"] as? Bool == false)
            #expect(((before.json["content"] as? [String: Any])?["state"] as? [String: Any])?["minutesAway"] as? Int == 15)

            let stale = try await daemon.request("GET", "/v1/activities?state=stale,ended&type=CourierAttributes")
            #expect(stale.objects("activities").compactMap { $0["id"] as? String } == [id])
            #expect(try await daemon.request("GET", "/v1/activities?state=active").objects("activities").isEmpty)
        }

        @Test("end with .after; the 8 h end and the 12 h dismissal through the virtual clock")
        func endAndTimeRules() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let first = try #require(try await daemon.startCourier(pushType: "none")["id"] as? String)
            let ended = try await daemon.request("POST", "/v1/activities/\(first)/end", json: """
                {"dismissalPolicy":{"kind":"after","date":"2026-03-01T11:00:00Z"}}
                """)
            #expect(ended.status == 200, "\(ended.text)")
            #expect(ended.json["outcome"] as? String == "applied")
            let activity = try #require(ended.json["activity"] as? [String: Any])
            #expect(activity["state"] as? String == "ended")
            #expect(activity["dismissesAt"] as? String == "2026-03-01T11:00:00Z")
            let again = try await daemon.request("POST", "/v1/activities/\(first)/update",
                                                 json: #"{"content":{"state":{"minutesAway":1,"stage":"x"}}}"#)
            #expect(again.json["outcome"] as? String == "ignored")
            #expect(again.json["reason"] as? String == "activity_not_active")

            let second = try #require(try await daemon.startCourier(pushType: "none")["id"] as? String)
            try await daemon.advance(seconds: 2 * 3600 + 60)
            #expect(try await daemon.request("GET", "/v1/activities/\(first)").json["state"] as? String == "dismissed")
            #expect(try await daemon.request("GET", "/v1/activities/\(second)").json["state"] as? String == "active")

            // 8 hours after its start the system ends it; 12 hours after its start it leaves the Lock Screen.
            try await daemon.advance(seconds: 6 * 3600)
            let eight = try await daemon.request("GET", "/v1/activities/\(second)")
            #expect(eight.json["state"] as? String == "ended")
            #expect(eight.json["endedAt"] as? String == "2026-03-01T17:00:00Z")
            #expect(eight.json["dismissesAt"] as? String == "2026-03-01T21:00:00Z")
            try await daemon.advance(seconds: 4 * 3600)
            let twelve = try await daemon.request("GET", "/v1/activities/\(second)/screen")
            #expect(twelve.json["state"] as? String == "dismissed")
            #expect(twelve.json["isVisible"] as? Bool == false)
        }

        @Test("rotated tokens, push-to-start, unaddressed pushes")
        func tokens() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let started = try await daemon.startCourier()
            let id = try #require(started["id"] as? String)
            let old = try #require(started["pushToken"] as? String)
            let rotated = try await daemon.request("POST", "/v1/activities/\(id)/tokens/rotate")
            #expect(rotated.status == 200)
            let new = try #require(rotated.json["token"] as? String)
            #expect(new != old && new.count == 64)
            let tokens = try await daemon.request("GET", "/v1/activities/\(id)/tokens").objects("tokens")
            #expect(tokens.compactMap { $0["token"] as? String } == [old, new])
            #expect(tokens.first?["replacedAt"] as? String == "2026-03-01T09:00:00Z")

            let toOld = try await daemon.push("""
                {"aps":{"timestamp":\(apnsTime(10)),"event":"update","content-state":{"minutesAway":5,"stage":"x"}}}
                """, token: old)
            #expect(toOld.firstPushResult?["reason"] as? String == "replaced_token")
            #expect((toOld.firstPushResult?["detail"] as? String)?.contains(new) == true)

            let types = try await daemon.request("GET", "/v1/activity-types").objects("types")
            #expect(types.compactMap { $0["name"] as? String } == ["CourierAttributes", "DeliveryAttributes"])
            let startToken = try await daemon.request("POST", "/v1/activity-types/CourierAttributes/push-to-start-token/rotate")
            let pushToStart = try #require(startToken.json["token"] as? String)
            let start = """
                "timestamp":\(apnsTime(20)),"event":"start","attributes-type":"CourierAttributes",\
                "attributes":{"orderID":"o-2"},"content-state":{"minutesAway":30,"stage":"placed"}
                """
            let silent = try await daemon.push(#"{"aps":{\#(start)}}"#, token: pushToStart)
            #expect(silent.status == 200)
            #expect(silent.firstPushResult?["reason"] as? String == "start_without_alert")
            #expect(silent.firstPushResult?["activityId"] == nil)
            let loud = try await daemon.push(#"{"aps":{\#(start),"alert":{"title":"Order","body":"Placed"}}}"#,
                                             token: pushToStart)
            #expect(loud.firstPushResult?["outcome"] as? String == "applied", "\(loud.text)")
            #expect(try await daemon.request("GET", "/v1/activities").objects("activities").count == 2)

            let nobody = try await daemon.push(#"{"aps":{"timestamp":1,"event":"update"}}"#, token: "00ff")
            #expect(nobody.firstPushResult?["reason"] as? String == "unknown_token")
            let unaddressed = try await daemon.request("GET", "/v1/device/pushes/unaddressed").objects("events")
            #expect(unaddressed.compactMap { ($0["ignored"] as? [String: Any])?["reason"] as? String }
                    == ["start_without_alert", "unknown_token"])
            let history = try await daemon.request("GET", "/v1/activity-types/CourierAttributes/tokens").objects("tokens")
            #expect(history.compactMap { $0["token"] as? String } == [pushToStart])
        }

        @Test("switched off: a request is 409 activities_disabled, a push is ignored")
        func authorization() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            let token = try #require(try await daemon.startCourier()["pushToken"] as? String)
            let off = try await daemon.request("PUT", "/v1/activities/authorization",
                                               json: #"{"activitiesEnabled":false,"frequentPushesEnabled":true}"#)
            #expect(off.status == 200)
            #expect(off.json["activitiesEnabled"] as? Bool == false)
            #expect(try await daemon.request("GET", "/v1/activities/authorization").json["frequentPushesEnabled"] as? Bool
                    == true)
            let refused = try await daemon.request("POST", "/v1/activities", json: """
                {"attributesType":"CourierAttributes","attributes":{"orderID":"o-9"},"content":{"state":{"minutesAway":1,"stage":"x"}}}
                """)
            expectRefusal(refused, status: 409, code: "activities_disabled")
            #expect(try await daemon.request("GET", "/v1/activities").objects("activities").count == 1)
            let pushed = try await daemon.push("""
                {"aps":{"timestamp":\(apnsTime(5)),"event":"update","content-state":{"minutesAway":2,"stage":"x"}}}
                """, token: token)
            #expect(pushed.firstPushResult?["reason"] as? String == "activities_disabled")
        }

        @Test("/metrics counts push results by outcome and reason")
        func metrics() async throws {
            let daemon = try InProcessDaemon.withActivities()
            defer { Task { await daemon.stop() } }
            _ = try await daemon.push(#"{"aps":{"timestamp":1,"event":"update"}}"#, token: "00ff")
            let metrics = String(decoding: try await daemon.request("GET", "/metrics").body, as: UTF8.self)
            #expect(metrics.contains(#"widgethost_activity_pushes_total{outcome="ignored",reason="unknown_token"} 1"#))
            #expect(metrics.contains(#"widgethost_activity_pushes_total{outcome="applied",reason="none"} 0"#))
        }
    }
}
