import ActivityKit
import Foundation
import Testing

struct DeliveryAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        var minutesAway: Int
    }

    var orderID: String
}

@Suite("Activity model")
struct ActivityModelTests {
    @Test("content keeps state, stale date and relevance, and round-trips through JSON")
    func content() throws {
        let content = ActivityContent(state: DeliveryAttributes.ContentState(minutesAway: 5), staleDate: nil)
        #expect(content.relevanceScore == 0)
        let decoded = try JSONDecoder().decode(
            ActivityContent<DeliveryAttributes.ContentState>.self, from: try JSONEncoder().encode(content))
        #expect(decoded == content)
    }
}

@Suite("Activity model with no host bound")
struct ActivityModelUnboundTests {
    static let attributes = FoodDeliveryAttributes(orderNumber: "A-1", restaurant: "Pasta Place")
    static let content = ActivityContent(
        state: FoodDeliveryAttributes.ContentState(status: "Preparing", minutesAway: 20,
                                                   arrival: Date(timeIntervalSinceReferenceDate: 1_000)),
        staleDate: nil)

    @Test("request throws unsupported, in every overload, and the tracker reports it")
    @MainActor
    func requestUnsupported() throws {
        #expect(throws: ActivityAuthorizationError.unsupported) {
            try Activity<FoodDeliveryAttributes>.request(attributes: Self.attributes, content: Self.content,
                                                         pushType: .token)
        }
        #expect(throws: ActivityAuthorizationError.unsupported) {
            try Activity<FoodDeliveryAttributes>.request(attributes: Self.attributes, content: Self.content,
                                                         style: .transient)
        }
        #expect(throws: ActivityAuthorizationError.unsupported) {
            try Activity<FoodDeliveryAttributes>.request(
                attributes: Self.attributes, content: Self.content,
                alertConfiguration: AlertConfiguration(title: "t", body: "b", sound: .default), start: Date())
        }
        let tracker = DeliveryTracker(server: RecordingDeliveryServer())
        #expect(!tracker.start(orderNumber: "A-1", restaurant: "Pasta Place", minutesAway: 20))
        #expect(tracker.lastError == .unsupported)
        #expect(tracker.current == nil)
    }

    @Test("no activities, no push-to-start token, activities and frequent pushes off")
    @MainActor
    func emptyAndOff() {
        #expect(Activity<FoodDeliveryAttributes>.activities.isEmpty)
        #expect(Activity<FoodDeliveryAttributes>.pushToStartToken == nil)
        #expect(!ActivityAuthorizationInfo().areActivitiesEnabled)
        #expect(!ActivityAuthorizationInfo().frequentPushesEnabled)
        let tracker = DeliveryTracker(server: RecordingDeliveryServer())
        #expect(!tracker.canStartActivities)
    }

    @Test("the type-wide and authorization streams finish at once", .timeLimit(.minutes(1)))
    func streamsFinish() async {
        var elements = 0
        for await _ in Activity<FoodDeliveryAttributes>.pushToStartTokenUpdates { elements += 1 }
        for await _ in Activity<FoodDeliveryAttributes>.activityUpdates { elements += 1 }
        for await _ in ActivityAuthorizationInfo().activityEnablementUpdates { elements += 1 }
        for await _ in ActivityAuthorizationInfo().frequentPushEnablementUpdates { elements += 1 }
        #expect(elements == 0)
    }

    @Test("policies, push types and sounds say what they were made with")
    func valueKinds() {
        let date = Date(timeIntervalSinceReferenceDate: 12_345)
        #expect(ActivityUIDismissalPolicy.after(date).kind == .after(date))
        #expect(ActivityUIDismissalPolicy.after(date) != .after(date.addingTimeInterval(1)))
        #expect(ActivityUIDismissalPolicy.immediate.kind == .immediate)
        #expect(ActivityUIDismissalPolicy.default.kind == .default)
        #expect(PushType.channel("x").kind == .channel("x"))
        #expect(PushType.channel("x") != .channel("y"))
        #expect(PushType.token.kind == .token)
        #expect(AlertConfiguration.AlertSound.named("a").name == "a")
        #expect(AlertConfiguration.AlertSound.default.name == nil)
    }
}

@Suite("Activity model bound to a host", .timeLimit(.minutes(1)))
struct ActivityModelBoundTests {
    static let arrival = Date(timeIntervalSinceReferenceDate: 1_000)
    static let stale = Date(timeIntervalSinceReferenceDate: 2_000.5)

    static func content(_ status: String, minutes: Int) -> ActivityContent<FoodDeliveryAttributes.ContentState> {
        ActivityContent(state: .init(status: status, minutesAway: minutes, arrival: arrival), staleDate: stale,
                        relevanceScore: 0.5)
    }

    @Test("request reaches the host with sorted-key JSON, dates as seconds since 2001")
    func requestEncoding() throws {
        let host = TestActivityHost()
        let start = Date(timeIntervalSinceReferenceDate: 3_000)
        let activity = try HostContext.withBinding(host) {
            try Activity<FoodDeliveryAttributes>.request(
                attributes: FoodDeliveryAttributes(orderNumber: "A-1", restaurant: "Pasta Place"),
                content: Self.content("Preparing", minutes: 20), pushType: .channel("deliveries"),
                style: .transient, alertConfiguration: AlertConfiguration(title: "On its way", body: "Soon",
                                                                          sound: .named("bell.caf")),
                start: start)
        }
        let request = try #require(host.requests.first)
        #expect(host.requests.count == 1)
        #expect(request.type.name == "FoodDeliveryAttributes")
        #expect(String(decoding: request.attributes, as: UTF8.self)
                == #"{"orderNumber":"A-1","restaurant":"Pasta Place"}"#)
        #expect(String(decoding: request.content.state, as: UTF8.self)
                == #"{"arrival":1000,"minutesAway":20,"status":"Preparing"}"#)
        #expect(request.content.staleDate == Self.stale)
        #expect(request.content.relevanceScore == 0.5)
        #expect(request.pushType?.kind == .channel("deliveries"))
        #expect(request.style == .transient)
        #expect(request.alert?.title.defaultValue == "On its way")
        #expect(request.alert?.sound.name == "bell.caf")
        #expect(request.start == start)
        #expect(activity.id == "activity-1")
        #expect(activity.attributes.restaurant == "Pasta Place")
        #expect(activity.activityState == .pending)
        #expect(activity.content == Self.content("Preparing", minutes: 20))
    }

    @Test("an activity keeps its host when updated and ended outside the binding")
    func keepsHost() async throws {
        let host = TestActivityHost()
        let activity = try HostContext.withBinding(host) {
            try Activity<FoodDeliveryAttributes>.request(
                attributes: FoodDeliveryAttributes(orderNumber: "A-2", restaurant: "Noodles"),
                content: Self.content("Preparing", minutes: 20), pushType: .token)
        }
        #expect(HostContext.current == nil)
        #expect(Activity<FoodDeliveryAttributes>.activities.isEmpty, "unbound, the type sees no host")

        await activity.update(Self.content("Picked up", minutes: 12),
                              alertConfiguration: AlertConfiguration(title: "Picked up", body: "12 min",
                                                                     sound: .default))
        let update = try #require(host.updates.first)
        #expect(update.id == activity.id)
        #expect(String(decoding: update.content.state, as: UTF8.self)
                == #"{"arrival":1000,"minutesAway":12,"status":"Picked up"}"#)
        #expect(update.alert?.title.defaultValue == "Picked up")
        #expect(activity.content.state.status == "Picked up", "content is read back from the host")

        await activity.end(nil, dismissalPolicy: .after(Self.stale))
        let end = try #require(host.ends.first)
        #expect(end.id == activity.id && end.content == nil && end.policy.kind == .after(Self.stale))
        #expect(activity.activityState == .ended)

        let listed = HostContext.withBinding(host) { Activity<FoodDeliveryAttributes>.activities }
        #expect(listed.map(\.id) == [activity.id])
    }

    @Test("pushTokenUpdates yields the current token, then each token the host streams")
    func pushTokens() async throws {
        let host = TestActivityHost()
        let activity = try HostContext.withBinding(host) {
            try Activity<FoodDeliveryAttributes>.request(
                attributes: FoodDeliveryAttributes(orderNumber: "A-3", restaurant: "Curry"),
                content: Self.content("Preparing", minutes: 20), pushType: .token)
        }
        #expect(activity.pushToken == TestActivityHost.firstToken(ofActivity: 1))
        var tokens = activity.pushTokenUpdates.makeAsyncIterator()
        #expect(await tokens.next() == TestActivityHost.firstToken(ofActivity: 1))
        host.rotateToken(id: activity.id, to: Data([0x01, 0x02, 0x03]))
        await activity.update(Self.content("Picked up", minutes: 12))
        host.rotateToken(id: activity.id, to: Data([0xFF]))
        #expect(await tokens.next() == Data([0x01, 0x02, 0x03]), "content in between is not a token")
        #expect(await tokens.next() == Data([0xFF]))
        #expect(activity.pushToken == Data([0xFF]))
        host.dismiss(id: activity.id)
        #expect(await tokens.next() == nil, "dismissal finishes the stream")
    }

    @Test("the iOS tracker runs against the host: tokens reach its server as hex, alerts and the end follow")
    @MainActor
    func trackerRuns() async throws {
        let host = TestActivityHost()
        let server = RecordingDeliveryServer()
        let tracker = DeliveryTracker(server: server)
        var tokens = server.updateTokens.makeAsyncIterator()
        var states = server.states.makeAsyncIterator()
        await HostContext.withBinding(host) {
            #expect(tracker.canStartActivities)
            #expect(tracker.start(orderNumber: "B-7", restaurant: "Tacos", minutesAway: 25))
            tracker.registerForPushToStart()
            #expect(await tokens.next() == "ab01 for B-7")
            host.rotateToken(id: "activity-1", to: Data([0x0A, 0xFF]))
            #expect(await tokens.next() == "0aff for B-7")
            #expect(await server.pushToStartTokens.first { _ in true } == "FoodDeliveryAttributes".utf8.map {
                String(format: "%02x", $0)
            }.joined())
        }
        // The tracker's observers subscribe when their tasks first run; an end before that would go unseen.
        while host.subscriberCount(id: "activity-1") < 3 {
            try await Task.sleep(for: .milliseconds(1))
        }
        await tracker.runningLate(minutesAway: 40)
        let late = try #require(host.updates.last)
        #expect(late.alert?.title.defaultValue == "Delivery delayed")
        #expect(late.content.relevanceScore == 100)
        await tracker.delivered()
        #expect(await states.next() == "B-7 ended")
        let end = try #require(host.ends.last)
        guard case .after(let date) = end.policy.kind else {
            Issue.record("delivered() should dismiss after a while, not \(end.policy.kind)")
            return
        }
        #expect(date > Date(), "an hour from now")
        #expect(tracker.current == nil)
    }

    @Test("a refused request reaches the tracker's catch as the host's error")
    @MainActor
    func trackerDenied() {
        let host = TestActivityHost(activitiesEnabled: false)
        let tracker = DeliveryTracker(server: RecordingDeliveryServer())
        HostContext.withBinding(host) {
            #expect(!tracker.canStartActivities)
            #expect(!tracker.start(orderNumber: "C-1", restaurant: "Soup", minutesAway: 5))
        }
        #expect(tracker.lastError == .denied)
        #expect(tracker.statusMessage == "Live Activities are off for this app")
        #expect(host.requests.isEmpty)
    }
}

/// A `DeliveryServer` that hands what it receives to the test as streams, so that a test awaits exactly what the
/// tracker's tasks send instead of guessing how long they take.
final class RecordingDeliveryServer: DeliveryServer, @unchecked Sendable {
    // @unchecked Sendable: it holds only continuations and streams, which are Sendable themselves.
    let updateTokens: AsyncStream<String>
    let pushToStartTokens: AsyncStream<String>
    let states: AsyncStream<String>
    private let updateTokenSink: AsyncStream<String>.Continuation
    private let pushToStartSink: AsyncStream<String>.Continuation
    private let stateSink: AsyncStream<String>.Continuation

    init() {
        (updateTokens, updateTokenSink) = AsyncStream.makeStream(of: String.self)
        (pushToStartTokens, pushToStartSink) = AsyncStream.makeStream(of: String.self)
        (states, stateSink) = AsyncStream.makeStream(of: String.self)
    }

    func register(updateToken: String, orderNumber: String) {
        updateTokenSink.yield("\(updateToken) for \(orderNumber)")
    }

    func register(pushToStartToken: String) {
        pushToStartSink.yield(pushToStartToken)
    }

    func activityChanged(orderNumber: String, state: ActivityState) {
        stateSink.yield("\(orderNumber) \(state.rawValue)")
    }
}
