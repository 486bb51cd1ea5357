import Foundation
import JSON

/// Feeds arbitrary bytes to the strict JSON parser every request body goes through, and to the strict decoder and
/// the date-time reader. The parser must not crash or hang; where Foundation's `JSONSerialization` also takes the
/// bytes, both must read the same value; what the parser takes, the writer writes back as text that parses to the
/// same value.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSON(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Data(bytes: data, count: size)
    if let text = String(validating: UnsafeBufferPointer(start: data, count: size), as: UTF8.self) {
        _ = try? DateTimeText.date(from: text)
    }
    _ = try? StrictJSONDecoder().decode([String: JSONValue].self, from: bytes)
    guard let ours = try? JSONParser.parse(bytes) else { return 0 }

    var writer = JSONTextWriter()
    guard (try? writer.value(ours)) != nil else { return 0 }
    let reparsed = try? JSONParser.parse(writer.data)
    precondition(reparsed.map { sameJSON($0, ours) } == true, "written text does not parse back: \(writer.text)")

    if let foundation = try? JSONSerialization.jsonObject(with: bytes, options: [.fragmentsAllowed]) {
        precondition(sameValue(ours, foundation), "the parser and JSONSerialization disagree on \(Array(bytes))")
    }
    return 0
}

/// Whether two values are the same JSON: numbers compared as numbers (the writer writes `3.0` as `3`, as
/// `JSONEncoder` does, which reads back as an integer).
private func sameJSON(_ value: JSONValue, _ other: JSONValue) -> Bool {
    switch (value, other) {
    case (.int(let left), .double(let right)), (.double(let right), .int(let left)): return Double(left) == right
    case (.array(let left), .array(let right)): return left.count == right.count && zip(left, right).allSatisfy(sameJSON)
    case (.object(let left), .object(let right)):
        return left.count == right.count && left.allSatisfy { key, member in right[key].map { sameJSON(member, $0) } ?? false }
    default: return value == other
    }
}

/// Whether `value` and what `JSONSerialization` read are the same JSON value (numbers compared as numbers).
private func sameValue(_ value: JSONValue, _ other: Any) -> Bool {
    switch value {
    case .null: return other is NSNull
    case .bool(let flag):
        return other is NSNumber && (other as? Bool) == flag
    case .int(let integer):
        return sameNumber(Double(integer), other)
    case .double(let double):
        return sameNumber(double, other)
    case .string(let text):
        return (other as? String) == text
    case .array(let elements):
        guard let others = other as? [Any], others.count == elements.count else { return false }
        return zip(elements, others).allSatisfy(sameValue)
    case .object(let members):
        guard let others = other as? [String: Any], others.count == members.count else { return false }
        return members.allSatisfy { key, member in others[key].map { sameValue(member, $0) } ?? false }
    }
}

/// Numbers as doubles, within one part in 10^14: `JSONSerialization` on Linux reads numbers as `NSDecimalNumber`,
/// whose `doubleValue` can miss the nearest double by several ulps (`2.000000000000013126254068715836757`: six),
/// where the parser takes the nearest, as `Double(_:)` does.
private func sameNumber(_ value: Double, _ other: Any) -> Bool {
    guard let number = other as? NSNumber else { return false }
    let theirs = number.doubleValue
    if value == theirs { return true }
    return abs(value - theirs) <= max(abs(value), abs(theirs)) * 1e-14
}
