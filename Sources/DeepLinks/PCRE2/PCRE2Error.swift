import CPCRE2

/// An error reported by PCRE2: its error code, PCRE2's own message, and the pattern and offset
/// it concerns.
///
/// Compile errors carry the offending pattern and the byte offset PCRE2 reported; match errors
/// (match limit exceeded, JIT stack exhausted...) carry the pattern that was running.
/// See [pcre2api(3), "Obtaining a textual error message"](https://www.pcre.org/current/doc/html/pcre2api.html).
public struct PCRE2Error: Error, Sendable, Hashable, CustomStringConvertible {
    /// A PCRE2 error code, as returned by `pcre2_compile` (positive) or the match functions (negative).
    public struct Code: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: Int32
        public init(rawValue: Int32) { self.rawValue = rawValue }

        /// The match limit (`pcre2_set_match_limit`) was reached: the pattern backtracks too much.
        public static let matchLimit = Code(rawValue: PCRE2_ERROR_MATCHLIMIT)
        /// The JIT stack was too small for this subject.
        public static let jitStackLimit = Code(rawValue: PCRE2_ERROR_JIT_STACKLIMIT)
        /// The compiled pattern would exceed PCRE2's size limit (link size 2: about 64K code units).
        public static let patternTooLarge = Code(rawValue: Int32(PCRE2_ERROR_PATTERN_TOO_LARGE))

        public var description: String { "PCRE2 error \(rawValue)" }
    }

    /// PCRE2's error code.
    public let code: Code
    /// PCRE2's own message for `code` (from `pcre2_get_error_message`).
    public let message: String
    /// The pattern being compiled or matched, when known.
    public let pattern: String?
    /// For compile errors: the byte offset in `pattern` where PCRE2 detected the problem.
    public let offset: Int?
    /// The PCRE2 function that failed.
    public let function: String

    /// Creates an error for `code`, fetching PCRE2's message for it.
    public init(code: Int32, pattern: String? = nil, offset: Int? = nil, function: String = #function) {
        self.code = Code(rawValue: code)
        self.message = PCRE2Error.message(for: code)
        self.pattern = pattern
        self.offset = offset
        self.function = function
    }

    public var description: String {
        var text = "\(function): \(message) (PCRE2 error \(code.rawValue))"
        if let offset { text += " at offset \(offset)" }
        if let pattern { text += " in pattern \(pattern)" }
        return text
    }

    /// PCRE2's message for an error code.
    public static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        guard length > 0 else { return "unknown PCRE2 error \(code)" }
        return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
    }
}
