import Foundation

extension PropertyListValue {
    /// Converts a Foundation value (what `UserDefaults.set(_:forKey:)` accepts) to a typed value.
    ///
    /// Accepted: `String`/`NSString`, `Bool`, `Int` and the other fixed-width integers (when
    /// they fit in `Int`), `Double`, `Float`, `NSNumber` (its `objCType` decides between bool,
    /// integer and double), `Data`/`NSData`, `Date`/`NSDate`, `URL` (stored as the string
    /// ``PropertyListValue/init(url:)`` makes), `PropertyListValue`, and arrays and
    /// `String`-keyed dictionaries of these, nested to any depth.
    ///
    /// - Parameter value: The value to convert.
    /// - Throws: ``NotAPropertyListError`` naming the first refused part and where it is.
    public init(any value: Any) throws {
        self = try Self.convert(value, at: "")
    }

    /// Makes the stored form of a URL: a file URL's path, any other URL's absolute string.
    ///
    /// This follows Apple's documentation of `UserDefaults.set(_:forKey:)` for URLs (file
    /// URLs are stored as paths); ``DefaultsSuite/url(forKey:)`` reads either form back.
    public init(url: URL) {
        self = .string(url.isFileURL ? url.path : url.absoluteString)
    }

    private static func convert(_ value: Any, at location: String) throws -> PropertyListValue {
        // Exact type checks first: on Linux `Any(1) as? NSNumber` bridges, which would hide
        // the difference between Int, Double and Bool.
        switch value {
        case let value as PropertyListValue: return value
        case let value as String: return .string(value)
        case let value as Bool where type(of: value) == Bool.self: return .bool(value)
        case let value as Int where type(of: value) == Int.self: return .integer(value)
        case let value as Double where type(of: value) == Double.self: return .double(value)
        case let value as Float where type(of: value) == Float.self: return .double(Double(value))
        case let value as Data: return .data(value)
        case let value as Date: return .date(value)
        case let value as URL: return PropertyListValue(url: value)
        case let value as any BinaryInteger:
            guard let exact = Int(exactly: value) else {
                throw NotAPropertyListError(typeName: "\(type(of: value)) \(value) (beyond Int)", location: location)
            }
            return .integer(exact)
        case let value as NSNumber: return fromNumber(value)
        case let value as NSString: return .string(value as String)
        case let value as [Any]:
            return .array(try value.enumerated().map { try convert($1, at: "\(location)[\($0)]") })
        case let value as [String: Any]:
            var result: [String: PropertyListValue] = [:]
            for (key, element) in value {
                result[key] = try convert(element, at: location.isEmpty ? key : "\(location).\(key)")
            }
            return .dictionary(result)
        default:
            throw NotAPropertyListError(typeName: String(describing: type(of: value)), location: location)
        }
    }

    private static func fromNumber(_ number: NSNumber) -> PropertyListValue {
        switch String(cString: number.objCType) {
        case "c", "B": return .bool(number.boolValue)
        case "f", "d": return .double(number.doubleValue)
        default: return .integer(number.intValue)
        }
    }

    /// The Foundation value for this value, as `UserDefaults.object(forKey:)` returns it:
    /// `String`, `Int`, `Double`, `Bool`, `Data`, `Date`, `[Any]` or `[String: Any]`.
    public var foundationValue: Any {
        switch self {
        case .string(let value): return value
        case .integer(let value): return value
        case .double(let value): return value
        case .bool(let value): return value
        case .data(let value): return value
        case .date(let value): return value
        case .array(let values): return values.map(\.foundationValue)
        case .dictionary(let values): return values.mapValues(\.foundationValue)
        }
    }
}
