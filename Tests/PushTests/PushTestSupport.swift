import ActivityKit
import Foundation
import JSON
import Push

/// A parcel tracker's Live Activity, as an app would declare it.
struct ParcelAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Stage: String, Codable { case packed, inTransit, delivered }
        var stage: Stage
        var stopsAway: Int
        var arrival: Date
    }

    var parcelID: String
}

/// Pushes as a server sends them, around one fixed present.
enum Sample {
    /// Now, in seconds since 1970.
    static let now = 1_795_000_000
    static var nowDate: Date { Date(timeIntervalSince1970: Double(now)) }
    static let bundle = "com.example.parcels"
    static let types = [ActivityAttributesType(ParcelAttributes.self)]

    /// An hour from now, in seconds since 2001 (as `JSONEncoder` writes a `Date`).
    static var arrival2001: Int { now + 3600 - 978_307_200 }

    static var state: String { #"{"arrival":\#(arrival2001),"stage":"inTransit","stopsAway":3}"# }

    static func headers(type: String = "liveactivity", priority: String? = "5",
                        extra: [String: String] = [:]) -> [String: String] {
        var headers = ["apns-push-type": type, "apns-topic": "\(bundle).push-type.\(type)"]
        if let priority { headers["apns-priority"] = priority }
        return headers.merging(extra) { _, new in new }
    }

    /// A valid update's `aps` members, as text, before the closing brace.
    static var update: String {
        #""event":"update","timestamp":\#(now),"stale-date":\#(now + 3600),"content-state":\#(state)"#
    }

    static var end: String {
        #""event":"end","timestamp":\#(now),"dismissal-date":\#(now + 60),"content-state":\#(state)"#
    }

    static var start: String {
        #"""
        "event":"start","timestamp":\#(now),"attributes-type":"ParcelAttributes","attributes":{"parcelID":"P-1"},\#
        "alert":{"title":"Parcel","body":"On its way"},"content-state":\#(state),"input-push-token":1
        """#
    }

    static func payload(_ members: String) -> String { #"{"aps":{\#(members)}}"# }
}

/// One push to check: headers, payload text, and what the checker is told about the activity.
struct PushSample: Sendable, CustomStringConvertible {
    var headers = Sample.headers()
    var payload: String
    var types = Sample.types
    var lastTimestamp: Int?

    var description: String { payload }

    func check() -> [PushFinding] {
        PushChecker.check(headers: headers, payload: Data(payload.utf8), types: types,
                          lastTimestamp: lastTimestamp.map { Date(timeIntervalSince1970: Double($0)) },
                          now: Sample.nowDate)
    }
}
