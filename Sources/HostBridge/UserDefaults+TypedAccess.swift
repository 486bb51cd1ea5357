import Foundation

/// Typed getters and setters with Foundation's conversions (numbers and strings convert where
/// Foundation converts them; missing or unconvertible values give `nil`, `0` or `false`).
extension UserDefaults {
    /// Returns the string for `key`; numbers convert to their decimal text.
    public func string(forKey defaultName: String) -> String? {
        switch object(forKey: defaultName) {
        case let value as String: return value
        case let value as Int: return String(value)
        case let value as Double: return String(value)
        case let value as Bool: return value ? "1" : "0"
        default: return nil
        }
    }

    /// Returns the array for `key`, or `nil` when the value is not an array.
    public func array(forKey defaultName: String) -> [Any]? {
        object(forKey: defaultName) as? [Any]
    }

    /// Returns the dictionary for `key`, or `nil` when the value is not a string-keyed dictionary.
    public func dictionary(forKey defaultName: String) -> [String: Any]? {
        object(forKey: defaultName) as? [String: Any]
    }

    /// Returns the data for `key`, or `nil` when the value is not `Data`.
    public func data(forKey defaultName: String) -> Data? {
        object(forKey: defaultName) as? Data
    }

    /// Returns the array of strings for `key`, or `nil` when any element is not a `String`.
    public func stringArray(forKey defaultName: String) -> [String]? {
        guard let array = array(forKey: defaultName) else { return nil }
        var strings: [String] = []
        strings.reserveCapacity(array.count)
        for element in array {
            guard let string = element as? String else { return nil }
            strings.append(string)
        }
        return strings
    }

    /// Returns the integer for `key`; doubles truncate, numeric strings parse, otherwise `0`.
    public func integer(forKey defaultName: String) -> Int {
        switch object(forKey: defaultName) {
        case let value as Int: return value
        case let value as Double where value.isFinite: return Int(exactly: value.rounded(.towardZero)) ?? 0
        case let value as Bool: return value ? 1 : 0
        case let value as String: return Int(value) ?? Double(value).flatMap { Int(exactly: $0.rounded(.towardZero)) } ?? 0
        default: return 0
        }
    }

    /// Returns the double for `key`; integers convert, numeric strings parse, otherwise `0`.
    public func double(forKey defaultName: String) -> Double {
        switch object(forKey: defaultName) {
        case let value as Double: return value
        case let value as Int: return Double(value)
        case let value as Bool: return value ? 1 : 0
        case let value as String: return Double(value) ?? 0
        default: return 0
        }
    }

    /// Returns the float for `key`, converted as ``double(forKey:)``.
    public func float(forKey defaultName: String) -> Float {
        Float(double(forKey: defaultName))
    }

    /// Returns the Boolean for `key`; non-zero numbers and the strings "YES", "true" and "1"
    /// (any case) are `true`, everything else `false`.
    public func bool(forKey defaultName: String) -> Bool {
        switch object(forKey: defaultName) {
        case let value as Bool: return value
        case let value as Int: return value != 0
        case let value as Double: return value != 0
        case let value as String: return ["yes", "true", "1"].contains(value.lowercased())
        default: return false
        }
    }

    /// Returns the URL for `key`, parsed from the stored string (see ``set(_:forKey:)``).
    public func url(forKey defaultName: String) -> URL? {
        switch object(forKey: defaultName) {
        case let value as String: return URL(string: value)
        case let value as URL: return value
        default: return nil
        }
    }

    /// Stores an integer for `key`.
    public func set(_ value: Int, forKey defaultName: String) {
        set(value as Any?, forKey: defaultName)
    }

    /// Stores a float for `key` (as a `Double`).
    public func set(_ value: Float, forKey defaultName: String) {
        set(Double(value) as Any?, forKey: defaultName)
    }

    /// Stores a double for `key`.
    public func set(_ value: Double, forKey defaultName: String) {
        set(value as Any?, forKey: defaultName)
    }

    /// Stores a Boolean for `key`.
    public func set(_ value: Bool, forKey defaultName: String) {
        set(value as Any?, forKey: defaultName)
    }

    /// Stores a URL for `key` as its `absoluteString`; `nil` removes the value.
    public func set(_ url: URL?, forKey defaultName: String) {
        set(url?.absoluteString as Any?, forKey: defaultName)
    }
}
