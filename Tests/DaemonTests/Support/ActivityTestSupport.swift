import ActivityKit
import DemoWidgets
import Foundation
import HTTPTestSupport
import Testing
import WidgetHost

/// The attributes type the activity tests start: the demo catalog has none on this branch.
struct CourierAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var minutesAway: Int
        var stage: String
    }

    var orderID: String
}

extension InProcessDaemon {
    /// A daemon serving the demo catalog plus ``CourierAttributes``.
    static func withActivities() throws -> InProcessDaemon {
        var catalog = DemoCatalog.make()
        catalog.registerActivity(CourierAttributes.self)
        return try InProcessDaemon(catalog: catalog)
    }

    /// Starts a courier activity through the API and returns its JSON.
    func startCourier(pushType: String = "token", staleDate: String? = nil,
                      sourceLocation: Testing.SourceLocation = #_sourceLocation) async throws -> [String: Any] {
        let stale = staleDate.map { #","staleDate":"\#($0)""# } ?? ""
        let response = try await request("POST", "/v1/activities", json: """
            {"attributesType":"CourierAttributes","attributes":{"orderID":"o-1"},\
            "content":{"state":{"minutesAway":20,"stage":"cooking"}\(stale)},"pushType":"\(pushType)"}
            """)
        #expect(response.status == 201, "\(String(decoding: response.body, as: UTF8.self))", sourceLocation: sourceLocation)
        return response.json
    }

    /// Delivers a payload as APNs would, to `token` (hex) or, without one, to nothing but `headers`.
    func push(_ payload: String, token: String?, headers: [(String, String)] = ActivityPushHeaders.standard)
        async throws -> RawHTTPClient.Response {
        try await request("POST", "/v1/device/push" + (token.map { "?token=\($0)" } ?? ""), json: payload,
                          headers: headers)
    }

    /// Advances the virtual clock.
    func advance(seconds: Int) async throws {
        let response = try await request("POST", "/v1/clock/advance", json: #"{"seconds":\#(seconds)}"#)
        #expect(response.status == 200)
    }
}

/// The headers a Live Activity push carries.
enum ActivityPushHeaders {
    static let standard = [("apns-push-type", "liveactivity"), ("apns-topic", "com.example.app.push-type.liveactivity")]
}

/// The virtual clock's start (2026-03-01T09:00:00Z) plus `seconds`, as an APNs `timestamp`.
func apnsTime(_ seconds: Int) -> Int { Int(InProcessDaemon.start.timeIntervalSince1970) + seconds }

extension RawHTTPClient.Response {
    /// The first push result of a `POST /v1/device/push` answer.
    var firstPushResult: [String: Any]? { objects("results").first }
}
