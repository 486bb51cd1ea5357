import ActivityKit
import Foundation
import JSON
import Push
import Testing
import WidgetHost

/// The checker's verdict on content-state must be the engine device's: both decode through `ActivityAttributesType`.
@Suite("PushChecker agrees with the device's decode")
struct PushCheckerAgreementTests {
    static let states: [String] = [
        Sample.state,
        #"{"arrival":\#(Sample.arrival2001),"stage":"inTransit","stopsAway":"128"}"#,
        #"{"arrival":\#(Sample.arrival2001),"stage":"inTransit"}"#,
        #"{"arrival":\#(Sample.arrival2001),"stage":"lost","stopsAway":1}"#,
        #"{"arrival":"2026-11-18T22:06:40Z","stage":"inTransit","stopsAway":1}"#,
        #"{"arrival":\#(Sample.arrival2001),"stage":"inTransit","stopsAway":1.5}"#,
        #"{"arrival":\#(Sample.arrival2001),"stage":"inTransit","stopsAway":3.0}"#,
        #"{"arrival":\#(Sample.arrival2001),"stage":"inTransit","stopsAway":null}"#,
        #"{"arrival":\#(Sample.arrival2001),"stage":"inTransit","stopsAway":1e20}"#,
        #"{"arrival":\#(Sample.arrival2001).5,"stage":"delivered","stopsAway":0,"extra":[1,2]}"#,
        #"{"arrival":true,"stage":"packed","stopsAway":-2}"#,
        #"[1,2,3]"#,
        #""inTransit""#,
    ]

    @Test("undecodable_content_state exactly when the device ignores the update as undecodable", arguments: states)
    func agreement(_ state: String) async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("widgethost-push-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        var catalog = WidgetCatalog()
        catalog.registerActivity(ParcelAttributes.self)
        let clock = VirtualClock(start: Sample.nowDate.addingTimeInterval(-60))
        let engine = WidgetEngine(catalog: catalog, store: try EngineStore(directory: directory), clock: clock)
        let initial = ParcelAttributes.ContentState(stage: .packed, stopsAway: 9, arrival: Sample.nowDate)
        let activity = try await engine.runAppCode {
            try Activity.request(attributes: ParcelAttributes(parcelID: "P-1"),
                                 content: ActivityContent(state: initial, staleDate: nil), pushType: .token)
        }
        let payload = Sample.payload(#""event":"update","timestamp":\#(Sample.now),"content-state":\#(state)"#)
        let delivery = try engine.activities.deliver(DevicePush(
            pushType: "liveactivity", topic: Sample.bundle + ".push-type.liveactivity", priority: 5,
            deviceToken: activity.pushToken, payload: Data(payload.utf8)))
        let deviceDropped = delivery.results.contains { result in
            if case .ignored(let ignored) = result.outcome { ignored.reason == .undecodableContentState } else { false }
        }
        let findings = PushSample(payload: payload).check()
        #expect(findings.contains { $0.code == .undecodableContentState } == deviceDropped, "\(findings)")
        #expect(deviceDropped || delivery.applied)
    }

    @Test("a date-time string where a Date is decoded is explained as seconds since 2001")
    func dateMessage() throws {
        let payload = Sample.payload(Sample.update.replacingOccurrences(
            of: #""arrival":\#(Sample.arrival2001)"#, with: #""arrival":"2026-11-18T22:06:40Z""#))
        let finding = try #require(PushSample(payload: payload).check().first { $0.code == .undecodableContentState })
        #expect(finding.pointer == "/aps/content-state/arrival")
        #expect(finding.message.contains("dates are seconds since 2001-01-01 with JSONDecoder's default strategy"))
        let expected = try DateTimeText.date(from: "2026-11-18T22:06:40Z").timeIntervalSinceReferenceDate
        #expect(finding.message.contains("write \(Int(expected))"))
    }
}
