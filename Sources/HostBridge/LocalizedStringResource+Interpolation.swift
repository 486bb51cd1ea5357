extension LocalizedStringResource {
    /// Builds a resource's key (with Apple's format specifiers) and its text side by side.
    ///
    /// Mirrors [String.LocalizationValue.StringInterpolation](https://developer.apple.com/documentation/swift/string/localizationvalue/stringinterpolation).
    public struct StringInterpolation: StringInterpolationProtocol, Sendable {
        /// The key so far, with a format specifier for each interpolated value.
        public private(set) var key = ""
        /// The text so far, with each interpolated value written out.
        public private(set) var value = ""

        public init(literalCapacity: Int, interpolationCount: Int) {
            key.reserveCapacity(literalCapacity + 4 * interpolationCount)
            value.reserveCapacity(literalCapacity + 8 * interpolationCount)
        }

        public mutating func appendLiteral(_ literal: String) {
            key += literal
            value += literal
        }

        /// Appends a string (`%@` in the key).
        public mutating func appendInterpolation(_ string: String) {
            key += "%@"
            value += string
        }

        /// Appends another resource's text (`%@` in the key).
        public mutating func appendInterpolation(_ resource: LocalizedStringResource) {
            key += "%@"
            value += resource.defaultValue
        }

        /// Appends an integer (`%lld` in the key).
        public mutating func appendInterpolation(_ number: Int) {
            key += "%lld"
            value += String(number)
        }

        /// Appends a double (`%lf` in the key).
        public mutating func appendInterpolation(_ number: Double) {
            key += "%lf"
            value += String(number)
        }

        /// Appends any other value's description (`%@` in the key).
        public mutating func appendInterpolation<Value>(_ other: Value) {
            key += "%@"
            value += String(describing: other)
        }
    }
}
