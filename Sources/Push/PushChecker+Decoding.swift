import ActivityKit
import Foundation
import JSON

extension PushInspection {
    /// Which part of a type a member is decoded as.
    enum DecodedPart {
        case contentState, attributes

        var code: PushFindingCode { self == .contentState ? .undecodableContentState : .undecodableAttributes }

        func name(_ type: ActivityAttributesType) -> String {
            self == .contentState ? type.name + ".ContentState" : type.name
        }

        func decode(_ json: Data, as type: ActivityAttributesType) throws {
            switch self {
            case .contentState: _ = try type.normalizedContentState(json)
            case .attributes: _ = try type.normalizedAttributes(json)
            }
        }
    }

    /// Decodes `value` as the device does (its canonical text through the type's `JSONDecoder`); when it decodes as
    /// none of `candidates`, reports the first candidate's error at the member it names.
    mutating func checkDecodes(_ value: JSONValue, at base: String, as candidates: [ActivityAttributesType],
                               part: DecodedPart) {
        let json = Data(value.canonicalText.utf8)
        var firstFailure: (type: ActivityAttributesType, error: any Error)?
        for type in candidates {
            do {
                try part.decode(json, as: type)
                return
            } catch {
                if firstFailure == nil { firstFailure = (type, error) }
            }
        }
        guard let (type, error) = firstFailure else { return }
        let others = candidates.count > 1 ? " (nor as any of \(candidates.dropFirst().map(\.name).joined(separator: ", ")))" : ""
        let (tokens, problem) = Self.explain(error, in: value)
        report(part.code, pointer: JSONPointer.appending(tokens, to: base), """
            does not decode as \(part.name(type))\(others): \(problem); the device drops the push
            """)
    }

    /// The member a decoding error is about, and what is wrong with it in words.
    static func explain(_ error: any Error, in root: JSONValue) -> (tokens: [String], problem: String) {
        guard let error = error as? DecodingError else { return ([], "\(error)") }
        switch error {
        case .keyNotFound(let key, let context):
            return (JSONPointer.tokens(context.codingPath) + [key.stringValue],
                    "the member \"\(key.stringValue)\" is missing")
        case .valueNotFound(let type, let context):
            return (JSONPointer.tokens(context.codingPath), "null where \(type) is decoded")
        case .typeMismatch(let type, let context):
            let tokens = JSONPointer.tokens(context.codingPath)
            return (tokens, mismatch(expected: type, found: JSONPointer.value(at: tokens, in: root)))
        case .dataCorrupted(let context):
            let tokens = JSONPointer.tokens(context.codingPath)
            let found = JSONPointer.value(at: tokens, in: root).map { " (found \($0.canonicalText))" } ?? ""
            return (tokens, context.debugDescription + found)
        @unknown default:
            return ([], "\(error)")
        }
    }

    /// A type mismatch in words, with the two mistakes servers make most: a date written as a date-time string,
    /// and a number written in quotes.
    private static func mismatch(expected: Any.Type, found: JSONValue?) -> String {
        let numeric = expected == Double.self || expected == Float.self || expected == Int.self
        guard let found else { return "expected \(expected)" }
        if numeric, let text = found.stringValue {
            if let date = try? DateTimeText.date(from: text) {
                return """
                    found the string "\(text)" where a number is decoded: dates are seconds since 2001-01-01 with \
                    JSONDecoder's default strategy (write \(PushInspection.text(date.timeIntervalSinceReferenceDate)))
                    """
            }
            if Double(text) != nil {
                return "found the string \"\(text)\" where \(expected) is decoded: write the number without quotes"
            }
        }
        return "expected \(expected), found \(found.typeName)"
    }
}
