import ActivityKit
import Foundation
import JSON
import WidgetHost

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

/// An engine on disk on a virtual clock, whose catalog registers ``ParcelAttributes``.
struct ActivityFixture {
    static let start = Date(timeIntervalSince1970: 1_795_000_000)
    static let topic = "com.example.parcels.push-type.liveactivity"
    let directory: URL
    let clock: VirtualClock
    let engine: WidgetEngine
    let rules: ActivityRules

    init(rules: ActivityRules = .default, directory: URL? = nil) throws {
        let directory = directory ?? FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-activities-\(UUID().uuidString)", isDirectory: true)
        self.directory = directory
        self.rules = rules
        let store = try EngineStore(directory: directory)
        clock = VirtualClock(start: try WidgetEngine.savedVirtualTime(in: store) ?? Self.start)
        var catalog = WidgetCatalog()
        catalog.registerActivity(ParcelAttributes.self)
        engine = WidgetEngine(catalog: catalog, store: store, clock: clock, activityRules: rules)
    }

    /// The same directory opened again, as a restarted process would.
    func reopened() throws -> ActivityFixture {
        try ActivityFixture(rules: rules, directory: directory)
    }

    var activities: LiveActivities { engine.activities }

    static func state(_ stage: ParcelAttributes.ContentState.Stage = .inTransit, stops: Int = 3,
                      arrival: Date = start.addingTimeInterval(3600)) -> ParcelAttributes.ContentState {
        ParcelAttributes.ContentState(stage: stage, stopsAway: stops, arrival: arrival)
    }

    /// Starts a parcel activity as app code does, inside the engine's binding.
    func request(stale: Date? = nil, pushType: PushType? = .token) async throws -> Activity<ParcelAttributes> {
        try await engine.runAppCode {
            try Activity.request(attributes: ParcelAttributes(parcelID: "P-1"),
                                 content: ActivityContent(state: Self.state(), staleDate: stale), pushType: pushType)
        }
    }

    /// Delivers a Live Activity push to `token` (or a channel) with `aps` as its payload's `aps`.
    func push(_ aps: String, token: Data? = nil, channel: String? = nil, priority: Int? = nil) throws -> PushDelivery {
        try activities.deliver(DevicePush(pushType: "liveactivity", topic: Self.topic, priority: priority,
                                          channelID: channel, deviceToken: token,
                                          payload: Data("{\"aps\":\(aps)}".utf8)))
    }

    /// Seconds since 1970 of the clock's now plus `offset`, as pushes carry times.
    func seconds(_ offset: TimeInterval = 0) -> Int {
        Int(clock.now.addingTimeInterval(offset).timeIntervalSince1970)
    }

    /// The content state JSON a server would send for `state` (dates as seconds since 2001, as JSONEncoder writes).
    static func json(_ state: ParcelAttributes.ContentState) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(state), as: UTF8.self)
    }

    /// The state changes in an activity's history, with when they happened relative to `start`.
    func stateChanges(_ id: String) throws -> [(ActivityState, TimeInterval)] {
        try activities.history(activityID: id).compactMap { event in
            if case .state(let state) = event.change { (state, event.at.timeIntervalSince(Self.start)) } else { nil }
        }
    }

    /// Why the last update to the activity (or the last push that reached none) was ignored.
    func lastIgnored(_ id: String?) throws -> ActivityIgnoredUpdate? {
        let events = try id.map { try activities.history(activityID: $0) } ?? activities.unaddressedPushes()
        return events.reversed().lazy.compactMap { event in
            if case .ignored(let ignored) = event.change { ignored } else { nil }
        }.first
    }
}

extension PushDelivery {
    /// The reasons of the results that were ignored.
    var ignoredReasons: [ActivityIgnoreReason] {
        results.compactMap { result in
            if case .ignored(let ignored) = result.outcome { ignored.reason } else { nil }
        }
    }
}
