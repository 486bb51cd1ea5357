import ActivityKit
import Foundation
import Push
import Testing

/// A rule, a push that breaks it, where the finding must point, and the same push fixed.
struct RuleCase: Sendable, CustomTestStringConvertible {
    var code: PushFindingCode
    var broken: PushSample
    /// The JSON pointer, or `header:<name>` for a header.
    var location: String
    var fixed: PushSample

    var testDescription: String { code.rawValue }

    static func payload(_ code: PushFindingCode, _ broken: String, at pointer: String, fixed: String,
                        types: [ActivityAttributesType] = Sample.types) -> RuleCase {
        RuleCase(code: code, broken: PushSample(payload: broken, types: types), location: pointer,
                 fixed: PushSample(payload: fixed, types: types))
    }

    static func header(_ code: PushFindingCode, _ broken: [String: String], _ name: String, fixed: [String: String],
                       payload: String = Sample.payload(Sample.update)) -> RuleCase {
        RuleCase(code: code, broken: PushSample(headers: broken, payload: payload), location: "header:" + name,
                 fixed: PushSample(headers: fixed, payload: payload))
    }
}

@Suite("PushChecker: every rule, broken and fixed")
struct PushCheckerRuleTests {
    static let now = Sample.now
    static let update = Sample.update
    static let state = Sample.state

    static let cases: [RuleCase] = [
        .header(.badPushType, Sample.headers(type: "alert"), "apns-push-type", fixed: Sample.headers()),
        .header(.topicMismatch, Sample.headers().merging(["apns-topic": Sample.bundle]) { $1 }, "apns-topic",
                fixed: Sample.headers()),
        .header(.badPriority, Sample.headers(priority: "7"), "apns-priority", fixed: Sample.headers()),
        .header(.badExpiration, Sample.headers(extra: ["apns-expiration": "tomorrow"]), "apns-expiration",
                fixed: Sample.headers(extra: ["apns-expiration": "\(now + 600)"])),
        .header(.duplicateHeader, Sample.headers(extra: ["APNs-Priority": "5"]), "apns-priority",
                fixed: Sample.headers()),
        .header(.channelStart, Sample.headers(priority: "10", extra: ["apns-channel-id": "dHJhaW5z"]),
                "apns-channel-id", fixed: Sample.headers(priority: "10"), payload: Sample.payload(Sample.start)),
        .payload(.payloadTooLarge,
                 Sample.payload(update.replacingOccurrences(of: #""stage""#, with: #""pad":"\#(String(repeating: "x", count: 4000))","stage""#)),
                 at: "",
                 fixed: Sample.payload(update.replacingOccurrences(of: #""stage""#, with: #""pad":"\#(String(repeating: "x", count: 3000))","stage""#))),
        .payload(.invalidJSON, Sample.payload(update + ","), at: "", fixed: Sample.payload(update)),
        .payload(.missingAps, #"{"event":"update"}"#, at: "/aps", fixed: Sample.payload(update)),
        .payload(.unknownEvent, Sample.payload(update.replacingOccurrences(of: #""update""#, with: #""refresh""#)),
                 at: "/aps/event", fixed: Sample.payload(update)),
        .payload(.unknownApsKey, Sample.payload(update + #","stale_date":1"#), at: "/aps/stale_date",
                 fixed: Sample.payload(update)),
        .payload(.missingTimestamp, Sample.payload(update.replacingOccurrences(of: #""timestamp":\#(now),"#, with: "")),
                 at: "/aps/timestamp", fixed: Sample.payload(update)),
        .payload(.invalidDate,
                 Sample.payload(update.replacingOccurrences(of: #""stale-date":\#(now + 3600)"#,
                                                            with: #""stale-date":"2026-11-18T21:06:40Z""#)),
                 at: "/aps/stale-date", fixed: Sample.payload(update)),
        .payload(.dateInMilliseconds,
                 Sample.payload(update.replacingOccurrences(of: #""timestamp":\#(now)"#, with: #""timestamp":\#(now)000"#)),
                 at: "/aps/timestamp", fixed: Sample.payload(update)),
        RuleCase(code: .timestampNotLater, broken: PushSample(payload: Sample.payload(update), lastTimestamp: now),
                 location: "/aps/timestamp", fixed: PushSample(payload: Sample.payload(update), lastTimestamp: now - 1)),
        .payload(.timestampInFuture,
                 Sample.payload(update.replacingOccurrences(of: #""timestamp":\#(now)"#, with: #""timestamp":\#(now + 3000)"#)),
                 at: "/aps/timestamp", fixed: Sample.payload(update)),
        .payload(.staleDateBeforeTimestamp,
                 Sample.payload(update.replacingOccurrences(of: #""stale-date":\#(now + 3600)"#, with: #""stale-date":\#(now - 60)"#)),
                 at: "/aps/stale-date", fixed: Sample.payload(update)),
        .payload(.dismissalDateNotEnd, Sample.payload(update + #","dismissal-date":\#(now + 60)"#),
                 at: "/aps/dismissal-date", fixed: Sample.payload(update)),
        .payload(.updateWithoutStaleDate,
                 Sample.payload(update.replacingOccurrences(of: #""stale-date":\#(now + 3600),"#, with: "")),
                 at: "/aps/stale-date", fixed: Sample.payload(update)),
        .payload(.endWithoutDismissalDate,
                 Sample.payload(Sample.end.replacingOccurrences(of: #""dismissal-date":\#(now + 60),"#, with: "")),
                 at: "/aps/dismissal-date", fixed: Sample.payload(Sample.end)),
        .payload(.invalidRelevanceScore, Sample.payload(update + #","relevance-score":"high""#),
                 at: "/aps/relevance-score", fixed: Sample.payload(update + #","relevance-score":75.5"#)),
        .payload(.missingContentState,
                 Sample.payload(update.replacingOccurrences(of: #","content-state":\#(state)"#, with: "")),
                 at: "/aps/content-state", fixed: Sample.payload(update)),
        .payload(.undecodableContentState,
                 Sample.payload(update.replacingOccurrences(of: #""stopsAway":3"#, with: #""stopsAway":"128""#)),
                 at: "/aps/content-state/stopsAway", fixed: Sample.payload(update)),
        RuleCase(code: .contentStateUnchecked, broken: PushSample(payload: Sample.payload(update), types: []),
                 location: "/aps/content-state", fixed: PushSample(payload: Sample.payload(update))),
        .payload(.unknownAttributesType,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""ParcelAttributes""#, with: #""Parcel""#)),
                 at: "/aps/attributes-type", fixed: Sample.payload(Sample.start)),
        .payload(.startWithoutAttributesType,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""attributes-type":"ParcelAttributes","#, with: "")),
                 at: "/aps/attributes-type", fixed: Sample.payload(Sample.start)),
        .payload(.startWithoutAttributes,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""attributes":{"parcelID":"P-1"},"#, with: "")),
                 at: "/aps/attributes", fixed: Sample.payload(Sample.start)),
        .payload(.undecodableAttributes,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""parcelID":"P-1""#, with: #""parcelID":7"#)),
                 at: "/aps/attributes/parcelID", fixed: Sample.payload(Sample.start)),
        .payload(.startWithoutAlert,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""alert":{"title":"Parcel","body":"On its way"},"#, with: "")),
                 at: "/aps/alert", fixed: Sample.payload(Sample.start)),
        .payload(.invalidAlert,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""body":"On its way""#,
                                                                  with: #""body":{"loc-key":"ARRIVING","loc-args":[3]}"#)),
                 at: "/aps/alert/body/loc-args/0",
                 fixed: Sample.payload(Sample.start.replacingOccurrences(of: #""body":"On its way""#,
                                                                         with: #""body":{"loc-key":"ARRIVING","loc-args":["3"]}"#))),
        .payload(.invalidInputPushToken,
                 Sample.payload(Sample.start.replacingOccurrences(of: #""input-push-token":1"#, with: #""input-push-token":"yes""#)),
                 at: "/aps/input-push-token", fixed: Sample.payload(Sample.start)),
        .header(.highPriorityWithoutAlert, Sample.headers(priority: nil), "apns-priority", fixed: Sample.headers()),
        RuleCase(code: .widgetPayload,
                 broken: PushSample(headers: Sample.headers(type: "widgets", priority: nil),
                                    payload: #"{"aps":{"content-changed":1}}"#),
                 location: "/aps/content-changed",
                 fixed: PushSample(headers: Sample.headers(type: "widgets", priority: nil),
                                   payload: #"{"aps":{"content-changed":true}}"#)),
        RuleCase(code: .widgetPriority,
                 broken: PushSample(headers: Sample.headers(type: "widgets", priority: "10"),
                                    payload: #"{"aps":{"content-changed":true}}"#),
                 location: "header:apns-priority",
                 fixed: PushSample(headers: Sample.headers(type: "widgets", priority: "5"),
                                   payload: #"{"aps":{"content-changed":true}}"#)),
        RuleCase(code: .controlPayload,
                 broken: PushSample(headers: Sample.headers(type: "controls", priority: nil),
                                    payload: #"{"aps":{"content-changed":true},"focus":true}"#),
                 location: "/focus",
                 fixed: PushSample(headers: Sample.headers(type: "controls", priority: nil),
                                   payload: #"{"aps":{"content-changed":true}}"#)),
        RuleCase(code: .controlPriority,
                 broken: PushSample(headers: Sample.headers(type: "controls", priority: "10"),
                                    payload: #"{"aps":{"content-changed":true}}"#),
                 location: "header:apns-priority",
                 fixed: PushSample(headers: Sample.headers(type: "controls", priority: "5"),
                                   payload: #"{"aps":{"content-changed":true}}"#)),
    ]

    @Test("the broken push is reported with the rule's code at the member or header at fault", arguments: cases)
    func broken(_ rule: RuleCase) {
        let findings = rule.broken.check().filter { $0.code == rule.code }
        #expect(!findings.isEmpty, "\(rule.broken.check())")
        let locations = findings.map { finding in finding.header.map { "header:" + $0 } ?? finding.pointer ?? "?" }
        #expect(locations.contains(rule.location), "\(findings)")
        #expect(findings.allSatisfy { $0.severity == rule.code.severity && !$0.message.isEmpty })
    }

    @Test("the fixed push has no findings at all", arguments: cases)
    func fixed(_ rule: RuleCase) {
        #expect(rule.fixed.check() == [])
    }

    @Test("every code has a broken-and-fixed case")
    func everyRuleCovered() {
        let covered = Set(Self.cases.map(\.code))
        #expect(Set(PushFindingCode.allCases).subtracting(covered) == [])
    }
}
