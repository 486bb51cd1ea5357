/// The decimal digits of an unsigned integer, written on the stack: for writers that append a number's text without
/// building a `String` for it (JSON integers, request ids).
package enum DecimalDigits {
    /// Calls `body` with the ASCII digits of `value` (no sign, no leading zeros; "0" for zero).
    @inlinable
    package static func withASCII<Result>(of value: UInt64,
                                          _ body: (UnsafeRawBufferPointer) throws -> Result) rethrows -> Result {
        var number = value
        var scratch: (UInt64, UInt64, UInt64) = (0, 0, 0)   // room for the 20 digits of UInt64.max
        return try withUnsafeMutableBytes(of: &scratch) { bytes in
            var start = bytes.count
            repeat {
                start -= 1
                bytes[start] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: number % 10)
                number /= 10
            } while number > 0
            return try body(UnsafeRawBufferPointer(rebasing: bytes[start...]))
        }
    }
}
