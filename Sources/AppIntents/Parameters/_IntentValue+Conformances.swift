import Foundation

// Conversions from stored values are strict about kinds, with these documented leniencies for
// values that arrive as plain JSON: an integral double fits `Int`; an int fits `Double`; a date may
// be an ISO 8601 string or seconds since 1970; a URL may be a string with a scheme; an enum case may
// be its raw value as a string (or an int for Int-backed enums).

extension Bool: _IntentValue {
    public static var _parameterKind: IntentParameterKind { .bool }
    public var _parameterValue: IntentParameterValue { .bool(self) }

    public static func _decode(_ value: IntentParameterValue) -> Bool? {
        if case .bool(let bool) = value { return bool }
        return nil
    }
}

extension Int: _IntentValue {
    public static var _parameterKind: IntentParameterKind { .int }
    public var _parameterValue: IntentParameterValue { .int(self) }

    public static func _decode(_ value: IntentParameterValue) -> Int? {
        switch value {
        case .int(let int): return int
        case .double(let double): return Int(exactly: double)
        default: return nil
        }
    }
}

extension Double: _IntentValue {
    public static var _parameterKind: IntentParameterKind { .double }
    public var _parameterValue: IntentParameterValue { .double(self) }

    public static func _decode(_ value: IntentParameterValue) -> Double? {
        switch value {
        case .double(let double): return double
        case .int(let int): return Double(int)
        default: return nil
        }
    }
}

extension String: _IntentValue {
    public static var _parameterKind: IntentParameterKind { .string }
    public var _parameterValue: IntentParameterValue { .string(self) }

    public static func _decode(_ value: IntentParameterValue) -> String? {
        if case .string(let string) = value { return string }
        return nil
    }
}

extension Date: _IntentValue {
    public static var _parameterKind: IntentParameterKind { .date }
    public var _parameterValue: IntentParameterValue { .date(self) }

    public static func _decode(_ value: IntentParameterValue) -> Date? {
        switch value {
        case .date(let date): return date
        case .string(let text): return IntentParameterValue.parseISO8601(text)
        case .int(let seconds): return Date(timeIntervalSince1970: TimeInterval(seconds))
        case .double(let seconds) where seconds.isFinite: return Date(timeIntervalSince1970: seconds)
        default: return nil
        }
    }
}

extension URL: _IntentValue {
    public static var _parameterKind: IntentParameterKind { .url }
    public var _parameterValue: IntentParameterValue { .url(self) }

    public static func _decode(_ value: IntentParameterValue) -> URL? {
        switch value {
        case .url(let url): return url
        case .string(let text):
            guard let url = URL(string: text), url.scheme?.isEmpty == false else { return nil }
            return url
        default: return nil
        }
    }
}

extension AppEnum {
    public static var _parameterKind: IntentParameterKind { .enumeration(enumeration) }
    public var _parameterValue: IntentParameterValue { .enumCase(rawValue.description) }

    public static func _decode(_ value: IntentParameterValue) -> Self? {
        let raw: String
        switch value {
        case .enumCase(let text), .string(let text): raw = text
        case .int(let int): raw = String(int)
        default: return nil
        }
        return RawValue(raw).flatMap(Self.init(rawValue:))
    }

    /// This enum type described for hosts.
    static var enumeration: IntentEnumeration {
        let representations = caseDisplayRepresentations
        return IntentEnumeration(
            typeName: String(describing: Self.self),
            displayName: typeDisplayRepresentation.name.defaultValue,
            cases: allCases.map { enumCase in
                IntentEnumeration.Case(
                    rawValue: enumCase.rawValue.description,
                    title: representations[enumCase]?.title.defaultValue ?? enumCase.rawValue.description
                )
            }
        )
    }
}

extension AppEntity {
    public static var _parameterKind: IntentParameterKind { .entity(typeName: String(describing: Self.self)) }
    public var _parameterValue: IntentParameterValue { .entity(id: id.entityIdentifierString) }

    /// Always `nil`: an entity is found by its query, asynchronously (see
    /// ``AnyIntentParameter/entityQuery()``).
    public static func _decode(_ value: IntentParameterValue) -> Self? { nil }
}
