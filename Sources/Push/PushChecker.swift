import ActivityKit
import Foundation
import JSON

/// Checks a Live Activity or widget push before it is sent: headers, payload bytes, and content decoded as the
/// device decodes it.
///
/// A device that cannot use a push drops it without a word, so the questions "why does the Lock Screen not move"
/// are answered here instead: each rule broken is a ``PushFinding`` with a stable code and the JSON pointer of the
/// member at fault. `content-state` and `attributes` are decoded through ``ActivityAttributesType`` exactly as the
/// engine's device decodes them, so the checker and the device cannot disagree on what decodes. Never traps, whatever
/// the bytes.
public enum PushChecker {
    /// Checks one push.
    /// - Parameters:
    ///   - headers: The `apns-*` header fields (names in any case).
    ///   - payload: The payload's bytes, as they will be sent.
    ///   - types: The attributes types the push may address: a start's `attributes-type` must be one of them; an
    ///     update's or end's `content-state` must decode as one of them (pass the activity's own type).
    ///   - lastTimestamp: The last `timestamp` the activity applied, if known.
    ///   - now: The present, for timestamps in the future.
    /// - Returns: The findings, errors and warnings, in the order the rules run (headers, then payload).
    public static func check(headers: [String: String], payload: Data, types: [ActivityAttributesType],
                             lastTimestamp: Date? = nil, now: Date = Date()) -> [PushFinding] {
        var inspection = PushInspection(headers: headers, types: types, lastTimestamp: lastTimestamp, now: now)
        inspection.checkHeaders(payloadSize: payload.count)
        inspection.checkPayload(payload)
        return inspection.findings
    }
}

/// One check under way: what it was given and what it found so far.
struct PushInspection {
    let headers: [String: String]
    let types: [ActivityAttributesType]
    let lastTimestamp: Date?
    let now: Date
    var findings: [PushFinding] = []
    /// The push type the payload is read as: the header's when it names one, else guessed from the payload.
    var pushType: PushHeaders.PushType?

    init(headers raw: [String: String], types: [ActivityAttributesType], lastTimestamp: Date?, now: Date) {
        var headers: [String: String] = [:]
        var duplicates: Set<String> = []
        for (name, value) in raw.sorted(by: { $0.key < $1.key }) {
            let lower = name.lowercased()
            if headers.updateValue(value, forKey: lower) != nil { duplicates.insert(lower) }
        }
        self.headers = headers
        self.types = types
        self.lastTimestamp = lastTimestamp
        self.now = now
        for name in duplicates.sorted() {
            report(.duplicateHeader, header: name, "\(name) is given twice in different cases; send it once")
        }
        pushType = headers["apns-push-type"].flatMap(PushHeaders.PushType.init(rawValue:))
    }

    mutating func report(_ code: PushFindingCode, pointer: String? = nil, header: String? = nil, _ message: String) {
        findings.append(PushFinding(code, pointer: pointer, header: header, message: message))
    }

    /// The header's value as a plain decimal integer (ASCII digits only, at most 18), or nil.
    static func decimal(_ text: String) -> Int? {
        let utf8 = text.utf8
        guard !utf8.isEmpty, utf8.count <= 18, utf8.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        return Int(text)
    }

    /// The payload as strict JSON, an object with an `aps` object; each way it is not is reported.
    mutating func checkPayload(_ payload: Data) {
        let root: JSONValue
        do {
            root = try JSONParser.parse(payload)
        } catch let error as JSONSyntaxError {
            return report(.invalidJSON, pointer: "", """
                the payload is not JSON: \(error.reason) at line \(error.line), column \(error.column)
                """)
        } catch {
            return report(.invalidJSON, pointer: "", "the payload is not JSON: \(error)")
        }
        guard let members = root.objectValue else {
            return report(.missingAps, pointer: "", "the payload is \(root.typeName); it must be an object with \"aps\"")
        }
        guard let aps = members["aps"]?.objectValue else {
            let found = members["aps"].map { "is \($0.typeName)" } ?? "is missing"
            return report(.missingAps, pointer: "/aps", "\"aps\" \(found); it must be an object")
        }
        let type = pushType ?? (aps["content-changed"] != nil ? .widgets : .liveActivity)
        switch type {
        case .widgets: checkWidget(root: members, aps: aps)
        case .controls: checkControl(root: members, aps: aps)
        case .liveActivity: checkLiveActivity(aps)
        }
    }
}
