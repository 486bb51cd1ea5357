import Foundation

/// Typed getters that convert the way Foundation's `UserDefaults` does on this toolchain.
///
/// Verified against swift-corelibs-foundation (Swift 6.3.1): a missing key answers `nil`,
/// `0`, `0.0` or `false`; numbers and strings convert through `NSNumber` and `NSString`
/// (`integer` of `"42"` is 42, of `"42abc"` 42, of `"abc"` 0, of `3.7` 3; `bool` of `"YES"`,
/// `"true"`, `"1"` is `true`; `string` of 42 is `"42"`, of `true` `"1"`); any other mismatch
/// (a `Date` read as a string, a `String` read as `Data`) answers `nil`/`0`/`false`. Nothing
/// crashes. `url(forKey:)` follows Apple's documentation instead of Linux Foundation, which
/// answers `nil` for strings and crashes on data.
extension DefaultsSuite {
    /// The string of `key`; numbers and Booleans as Foundation formats them (`"42"`, `"3.5"`, `"1"`).
    public func string(forKey key: String) -> String? {
        switch value(forKey: key) {
        case .string(let text): return text
        case .integer(let integer): return NSNumber(value: integer).stringValue
        case .double(let real): return NSNumber(value: real).stringValue
        case .bool(let flag): return NSNumber(value: flag).stringValue
        default: return nil
        }
    }

    /// The integer of `key`; doubles truncate (NaN and out-of-range values answer what
    /// `NSNumber.intValue` answers), strings parse a leading number (`NSString.integerValue`),
    /// Booleans are 1 or 0; otherwise 0.
    public func integer(forKey key: String) -> Int {
        switch value(forKey: key) {
        case .integer(let integer): return integer
        case .double(let real): return NSNumber(value: real).intValue
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text): return (text as NSString).integerValue
        default: return 0
        }
    }

    /// The double of `key`; integers convert, strings parse (`NSString.doubleValue`),
    /// Booleans are 1 or 0; otherwise 0.
    public func double(forKey key: String) -> Double {
        switch value(forKey: key) {
        case .double(let real): return real
        case .integer(let integer): return Double(integer)
        case .bool(let flag): return flag ? 1 : 0
        case .string(let text): return (text as NSString).doubleValue
        default: return 0
        }
    }

    /// The float of `key`, converted like ``double(forKey:)``.
    public func float(forKey key: String) -> Float {
        Float(double(forKey: key))
    }

    /// The Boolean of `key`; numbers are `true` when non-zero, strings as `NSString.boolValue`
    /// (`"YES"`, `"true"`, `"1"`... are `true`); otherwise `false`.
    public func bool(forKey key: String) -> Bool {
        switch value(forKey: key) {
        case .bool(let flag): return flag
        case .integer(let integer): return integer != 0
        case .double(let real): return real != 0
        case .string(let text): return (text as NSString).boolValue
        default: return false
        }
    }

    /// The data of `key`, or `nil` when it holds anything else.
    public func data(forKey key: String) -> Data? {
        guard case .data(let data)? = value(forKey: key) else { return nil }
        return data
    }

    /// The array of `key` as Foundation values, or `nil` when it holds anything else.
    public func array(forKey key: String) -> [Any]? {
        guard case .array(let values)? = value(forKey: key) else { return nil }
        return values.map(\.foundationValue)
    }

    /// The array of `key` when all its elements are strings, else `nil`.
    public func stringArray(forKey key: String) -> [String]? {
        guard case .array(let values)? = value(forKey: key) else { return nil }
        var strings: [String] = []
        for case .string(let text) in values { strings.append(text) }
        return strings.count == values.count ? strings : nil
    }

    /// The dictionary of `key` as Foundation values, or `nil` when it holds anything else.
    public func dictionary(forKey key: String) -> [String: Any]? {
        guard case .dictionary(let values)? = value(forKey: key) else { return nil }
        return values.mapValues(\.foundationValue)
    }

    /// The URL of `key`: a string starting with `/` or `~` is a file path (tilde expanded),
    /// another string is parsed as a URL and must have a scheme; anything else is `nil`.
    public func url(forKey key: String) -> URL? {
        guard case .string(let text)? = value(forKey: key) else { return nil }
        if text.hasPrefix("/") || text.hasPrefix("~") {
            return URL(fileURLWithPath: (text as NSString).expandingTildeInPath)
        }
        guard let url = URL(string: text), url.scheme != nil else { return nil }
        return url
    }
}
