import Foundation

/// A property-list value: what `UserDefaults` can store, as a typed Swift enum.
///
/// Integers, doubles and booleans are distinct cases (Foundation's `NSNumber` blurs them),
/// and every case round-trips exactly through the container, including `Date` (stored as the
/// `Double` `timeIntervalSinceReferenceDate`, bit for bit) and `Data`.
///
/// `Codable` uses the compiler-synthesized keyed form (`{"integer":{"_0":42}}`), which keeps
/// the case on decoding; JSON cannot carry NaN or infinite doubles.
public enum PropertyListValue: Sendable, Hashable, Codable {
    case string(String)
    case integer(Int)
    case double(Double)
    case bool(Bool)
    case data(Data)
    case date(Date)
    case array([PropertyListValue])
    case dictionary([String: PropertyListValue])
}

extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
    ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral, ExpressibleByDictionaryLiteral {
    public init(stringLiteral value: String) { self = .string(value) }
    public init(integerLiteral value: Int) { self = .integer(value) }
    public init(floatLiteral value: Double) { self = .double(value) }
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
    public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
        self = .dictionary(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

/// A value that is not a property list, refused by ``PropertyListValue/init(any:)``.
public struct NotAPropertyListError: Error, CustomStringConvertible, Sendable, Equatable {
    /// The Swift type of the refused value, e.g. `"NSObject"` or `"Dictionary<Int, String>"`.
    public let typeName: String
    /// Where in the value the refused part sits: `""` for the value itself, `"[2].name"` inside.
    public let location: String

    public var description: String {
        let place = location.isEmpty ? "" : " at \(location)"
        return "not a property-list value\(place): \(typeName) (allowed: String, Int, Double, Bool, "
            + "Data, Date, URL, arrays of these, and dictionaries with String keys)"
    }
}
