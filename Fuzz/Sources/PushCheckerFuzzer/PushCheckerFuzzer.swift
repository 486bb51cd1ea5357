import ActivityKit
import Foundation
import Push

/// A Live Activity type to decode content against, with the members that make decoding interesting: an enum, a
/// date, an optional, an array.
struct FuzzAttributes: ActivityAttributes {
    struct ContentState: Codable, Hashable {
        enum Stage: String, Codable { case packed, inTransit, delivered }
        var stage: Stage
        var stopsAway: Int
        var arrival: Date
        var note: String?
        var legs: [Int]
    }

    var parcelID: String
}

private let types = [ActivityAttributesType(FuzzAttributes.self)]

/// Feeds arbitrary bytes to `PushChecker` as a payload, the first byte choosing the headers (push type, priority,
/// channel, a last timestamp). The checker must never crash or hang, must answer the same twice, and every pointer it
/// gives must be an RFC 6901 pointer (empty, or starting with `/`).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPushChecker(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    guard size > 0 else { return 0 }
    let selector = data[0]
    let payload = Data(bytes: data + 1, count: size - 1)
    var headers = ["apns-push-type": selector & 1 == 0 ? "liveactivity" : "widgets",
                   "apns-topic": "com.example.push-type." + (selector & 2 == 0 ? "liveactivity" : "widgets")]
    if selector & 4 != 0 { headers["apns-priority"] = selector & 8 == 0 ? "10" : "5" }
    if selector & 16 != 0 { headers["apns-channel-id"] = "Y2hhbm5lbA==" }
    let last = selector & 32 == 0 ? nil : Date(timeIntervalSince1970: 1_795_000_000)
    let now = Date(timeIntervalSince1970: 1_795_000_000)
    let findings = PushChecker.check(headers: headers, payload: payload, types: selector & 64 == 0 ? types : [],
                                     lastTimestamp: last, now: now)
    let again = PushChecker.check(headers: headers, payload: payload, types: selector & 64 == 0 ? types : [],
                                  lastTimestamp: last, now: now)
    precondition(findings == again, "two checks of the same push disagree")
    for finding in findings {
        precondition(finding.pointer.map { $0.isEmpty || $0.hasPrefix("/") } ?? (finding.header != nil),
                     "a finding names neither a pointer nor a header: \(finding)")
    }
    return 0
}
