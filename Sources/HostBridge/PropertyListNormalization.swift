import Foundation

/// Normalises values on their way into a ``DefaultsStorage``.
///
/// Storage implementations then only ever see `String`, `Bool`, `Int`, `Double`, `Date`, `Data`,
/// `[Any]` and `[String: Any]`, whatever integer or floating-point type the caller used.
enum PropertyListNormalization {
    /// Returns `value` in normalised form, or `nil` when it is not a property list.
    static func normalize(_ value: Any) -> Any? {
        switch value {
        case let value as String: return value
        case let value as Substring: return String(value)
        case let value as Bool: return value
        case let value as Int: return value
        case let value as Int8: return Int(value)
        case let value as Int16: return Int(value)
        case let value as Int32: return Int(value)
        case let value as Int64: return Int(exactly: value)
        case let value as UInt: return Int(exactly: value)
        case let value as UInt8: return Int(value)
        case let value as UInt16: return Int(value)
        case let value as UInt32: return Int(value)
        case let value as UInt64: return Int(exactly: value)
        case let value as Double: return value
        case let value as Float: return Double(value)
        case let value as Date: return value
        case let value as Data: return value
        case let value as [Any]:
            var result: [Any] = []
            result.reserveCapacity(value.count)
            for element in value {
                guard let normalized = normalize(element) else { return nil }
                result.append(normalized)
            }
            return result
        case let value as [String: Any]:
            var result: [String: Any] = [:]
            for (key, element) in value {
                guard let normalized = normalize(element) else { return nil }
                result[key] = normalized
            }
            return result
        case let value as NSNumber:
            if let integer = Int(exactly: value.doubleValue) { return integer }
            return value.doubleValue
        default:
            return nil
        }
    }
}
