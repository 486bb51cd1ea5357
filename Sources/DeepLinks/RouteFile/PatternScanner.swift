/// Reads the structure of a route pattern that matching and dispatch need, without compiling it:
/// its literal prefix, its named groups, constructs routes do not allow, and a reverse-routing template.
///
/// The scanner understands escapes, character classes, `\Q...\E` and group nesting well enough to be
/// conservative: when in doubt it reports a shorter literal prefix or no template, never a wrong one.
enum PatternScanner {
    /// One piece of a reverse-routing template.
    enum TemplatePiece: Sendable, Hashable {
        /// Bytes written as they are.
        case literal(String)
        /// A named group, filled from a parameter; `pattern` is the group's own pattern text.
        case parameter(String, pattern: String)
    }

    /// The named groups of `pattern` with the byte offset of each name.
    static func namedGroups(_ pattern: String) -> [(name: String, offset: Int)] {
        let bytes = Array(pattern.utf8)
        var groups: [(name: String, offset: Int)] = []
        forEachStructuralByte(bytes) { index, _ in
            if let (name, offset, _) = namedGroupOpening(bytes, at: index) { groups.append((name, offset)) }
        }
        return groups
    }

    /// The first construct routes do not allow, as (byte offset, reason), or nil.
    ///
    /// Backtracking verbs and `(*...)` options would change how the alternation of many routes
    /// behaves; `\K` moves the match start; recursion and subroutine calls refer to group numbers
    /// that change when routes are combined.
    static func unsupportedConstruct(_ pattern: String) -> (offset: Int, reason: String)? {
        let bytes = Array(pattern.utf8)
        var found: (offset: Int, reason: String)?
        forEachStructuralByte(bytes) { index, escaped in
            guard found == nil else { return }
            let next = index + 1 < bytes.count ? bytes[index + 1] : 0
            if escaped {
                if next == UInt8(ascii: "K") { found = (index, "\\K is not allowed in a route pattern") }
                if next == UInt8(ascii: "g") { found = (index, "back references and subroutine calls are not allowed in a route pattern") }
                return
            }
            guard bytes[index] == UInt8(ascii: "(") else { return }
            if next == UInt8(ascii: "*") {
                found = (index, "backtracking verbs and (*...) options are not allowed in a route pattern")
            } else if next == UInt8(ascii: "?"), index + 2 < bytes.count {
                let third = bytes[index + 2]
                let fourth = index + 3 < bytes.count ? bytes[index + 3] : 0
                if third == UInt8(ascii: "R") || third == UInt8(ascii: "&") || isDigit(third)
                    || ((third == UInt8(ascii: "+") || third == UInt8(ascii: "-")) && isDigit(fourth))
                    || (third == UInt8(ascii: "P") && fourth == UInt8(ascii: ">")) {
                    found = (index, "recursion and subroutine calls are not allowed in a route pattern")
                } else if optionLetters(bytes, from: index + 2).contains(UInt8(ascii: "x")) {
                    // Extended mode turns `#` into a comment that would swallow the rest of a combined pattern.
                    found = (index, "extended mode (?x) is not allowed in a route pattern")
                }
            }
        }
        return found
    }

    /// A template for building URLs: literal text and named groups only. Optional parts
    /// (`x?`, `(?:...)?`, `(?:...)*`) without named groups are left out. Nil when the pattern
    /// has any other top-level construct.
    static func template(_ pattern: String) -> [TemplatePiece]? {
        let bytes = Array(pattern.utf8)
        if hasTopLevelAlternation(bytes) { return nil }
        var pieces: [TemplatePiece] = []
        var literal: [UInt8] = []
        func flush() {
            if !literal.isEmpty { pieces.append(.literal(String(decoding: literal, as: UTF8.self))) }
            literal = []
        }
        var index = 0
        if bytes.first == UInt8(ascii: "^") { index = 1 }
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "(") {
                guard let close = matchingParenthesis(bytes, from: index) else { return nil }
                let optional = close + 1 < bytes.count && (bytes[close + 1] == UInt8(ascii: "?") || bytes[close + 1] == UInt8(ascii: "*"))
                if let (name, _, bodyStart) = namedGroupOpening(bytes, at: index) {
                    guard !optional, close + 1 >= bytes.count || !quantifiers.contains(bytes[close + 1]) else { return nil }
                    flush()
                    pieces.append(.parameter(name, pattern: String(decoding: bytes[bodyStart..<close], as: UTF8.self)))
                    index = close + 1
                } else if optional, !String(decoding: bytes[index...close], as: UTF8.self).contains("(?<"),
                          !String(decoding: bytes[index...close], as: UTF8.self).contains("(?'"),
                          !String(decoding: bytes[index...close], as: UTF8.self).contains("(?P<") {
                    index = close + 2
                } else {
                    return nil
                }
                continue
            }
            if byte == UInt8(ascii: "$"), index == bytes.count - 1 { break }
            var character: [UInt8]
            var next: Int
            if byte == UInt8(ascii: "\\") {
                guard index + 1 < bytes.count, !isAlphanumeric(bytes[index + 1]), bytes[index + 1] < 0x80 else { return nil }
                character = [bytes[index + 1]]
                next = index + 2
            } else if metacharacters.contains(byte) {
                return nil
            } else {
                next = min(index + utf8Length(byte), bytes.count)
                character = Array(bytes[index..<next])
            }
            if next < bytes.count, quantifiers.contains(bytes[next]) {
                guard bytes[next] == UInt8(ascii: "?") || bytes[next] == UInt8(ascii: "*") else { return nil }
                index = next + 1
                continue
            }
            literal += character
            index = next
        }
        flush()
        return pieces
    }

    // MARK: - Scanning helpers

    static let metacharacters: Set<UInt8> = Set("^$.[|()?*+{".utf8)
    static let quantifiers: Set<UInt8> = Set("?*+{".utf8)

    /// Calls `body` for every byte outside character classes and `\Q...\E`; `escaped` is true for a
    /// backslash (whose next byte is then skipped).
    static func forEachStructuralByte(_ bytes: [UInt8], _ body: (Int, Bool) -> Void) {
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") {
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "Q") {
                    index = endOfQuote(bytes, from: index + 2)
                    continue
                }
                body(index, true)
                index += 2
                continue
            }
            if byte == UInt8(ascii: "[") {
                index = endOfClass(bytes, from: index)
                continue
            }
            body(index, false)
            index += 1
        }
    }

    /// The option letters of an inline setting such as `(?ix)` or `(?x:`, or empty.
    private static func optionLetters(_ bytes: [UInt8], from start: Int) -> [UInt8] {
        var index = start
        var letters: [UInt8] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: ")") || byte == UInt8(ascii: ":") { return letters }
            guard (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") || byte == UInt8(ascii: "-")
                || byte == UInt8(ascii: "^") else { return [] }
            letters.append(byte)
            index += 1
        }
        return []
    }

    static func hasTopLevelAlternation(_ bytes: [UInt8]) -> Bool {
        var depth = 0
        var found = false
        forEachStructuralByte(bytes) { index, escaped in
            guard !escaped else { return }
            switch bytes[index] {
            case UInt8(ascii: "("): depth += 1
            case UInt8(ascii: ")"): depth -= 1
            case UInt8(ascii: "|") where depth == 0: found = true
            default: break
            }
        }
        return found
    }

    static func matchingParenthesis(_ bytes: [UInt8], from open: Int) -> Int? {
        var depth = 0
        var result: Int?
        forEachStructuralByte(bytes) { index, escaped in
            guard result == nil, index >= open, !escaped else { return }
            if bytes[index] == UInt8(ascii: "(") { depth += 1 }
            if bytes[index] == UInt8(ascii: ")") {
                depth -= 1
                if depth == 0 { result = index }
            }
        }
        return result
    }

    /// If a named group opens at `index`: its name, the name's offset, and the offset after the opening.
    static func namedGroupOpening(_ bytes: [UInt8], at index: Int) -> (String, Int, Int)? {
        guard bytes[index] == UInt8(ascii: "("), index + 2 < bytes.count, bytes[index + 1] == UInt8(ascii: "?") else { return nil }
        var start = index + 2
        var terminator = UInt8(ascii: ">")
        switch bytes[start] {
        case UInt8(ascii: "<"): start += 1
        case UInt8(ascii: "'"): start += 1; terminator = UInt8(ascii: "'")
        case UInt8(ascii: "P") where start + 1 < bytes.count && bytes[start + 1] == UInt8(ascii: "<"): start += 2
        default: return nil
        }
        guard start < bytes.count, bytes[start] != UInt8(ascii: "="), bytes[start] != UInt8(ascii: "!") else { return nil }
        var end = start
        while end < bytes.count, bytes[end] != terminator { end += 1 }
        guard end < bytes.count else { return nil }
        return (String(decoding: bytes[start..<end], as: UTF8.self), start, end + 1)
    }

    private static func endOfQuote(_ bytes: [UInt8], from start: Int) -> Int {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "E") { return index + 2 }
            index += 1
        }
        return bytes.count
    }

    private static func endOfClass(_ bytes: [UInt8], from open: Int) -> Int {
        var index = open + 1
        if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }  // a leading ] is literal
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\"): index += 2
            case UInt8(ascii: "["):
                // A POSIX class such as [:alpha:] inside a class.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: ":"),
                   let close = bytes[(index + 2)...].firstIndex(of: UInt8(ascii: "]")) {
                    index = close + 1
                } else {
                    index += 1
                }
            case UInt8(ascii: "]"): return index + 1
            default: index += 1
            }
        }
        return bytes.count
    }

    static func utf8Length(_ lead: UInt8) -> Int {
        lead < 0x80 ? 1 : lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }
}
