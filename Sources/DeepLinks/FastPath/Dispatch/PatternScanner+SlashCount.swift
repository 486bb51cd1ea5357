/// How many `/` every match of a pattern contains: what lets dispatch choose among a key's routes
/// by the subject's number of path segments.
extension PatternScanner {
    /// The number of `/` bytes in every subject `pattern` matches as a whole, or nil when matches can
    /// differ in it (or the scanner is unsure).
    ///
    /// Fixed when every part of the pattern either cannot match `/` (literals other than `/`,
    /// classes without `/`, `[^/]`, assertions, lookarounds) or is a literal `/` repeated a fixed
    /// number of times, and alternatives agree. `.`, `\D`, `\W`, `\S`, `\p{...}`, hex or octal
    /// escapes, POSIX classes, and option settings other than a comment make the answer nil.
    static func slashCount(_ pattern: String) -> Int? {
        var scanner = SlashCounter(bytes: Array(pattern.utf8))
        let count = scanner.alternation()
        guard !scanner.failed, scanner.index == scanner.bytes.count else { return nil }
        return count
    }
}

/// A recursive descent over a pattern that sums the `/` each part must match.
private struct SlashCounter {
    let bytes: [UInt8]
    var index = 0
    /// Set on syntax the counter does not follow; the whole answer is then nil.
    var failed = false

    init(bytes: [UInt8]) { self.bytes = bytes }

    private var current: UInt8? { index < bytes.count ? bytes[index] : nil }

    /// Branches up to a `)` or the end: their common count, or nil.
    mutating func alternation() -> Int? {
        var count = sequence()
        while !failed, current == UInt8(ascii: "|") {
            index += 1
            let other = sequence()
            if other != count { count = nil }
        }
        return count
    }

    private mutating func sequence() -> Int? {
        var total: Int? = 0
        while !failed, let byte = current, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
            let atom = self.atom()
            let repeated = quantified(atom)
            if let sum = total, let repeated { total = sum + repeated } else { total = nil }
        }
        return total
    }

    /// Applies a quantifier, if one follows, to an atom's count.
    private mutating func quantified(_ count: Int?) -> Int? {
        guard let byte = current else { return count }
        var exact: Int?
        switch byte {
        case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"):
            index += 1
        case UInt8(ascii: "{"):
            guard let (minimum, maximum, end) = braceQuantifier(at: index) else { return count }
            index = end
            if minimum == maximum { exact = minimum }
        default:
            return count
        }
        if let next = current, next == UInt8(ascii: "?") || next == UInt8(ascii: "+") { index += 1 }  // lazy, possessive
        guard let count else { return nil }
        if count == 0 { return 0 }
        return exact.map { $0 * count }
    }

    /// `{n}`, `{n,}` or `{n,m}` at `start`: its bounds (nil maximum: unbounded) and end; nil when the
    /// brace is a literal (PCRE2 10.42 reads `{,m}` and other forms as literal text).
    private func braceQuantifier(at start: Int) -> (Int, Int?, Int)? {
        var position = start + 1
        func number() -> Int? {
            let first = position
            var value = 0
            while position < bytes.count, bytes[position] >= UInt8(ascii: "0"), bytes[position] <= UInt8(ascii: "9"), value < 100_000 {
                value = value * 10 + Int(bytes[position] - UInt8(ascii: "0"))
                position += 1
            }
            return position > first ? value : nil
        }
        guard let minimum = number() else { return nil }
        var maximum: Int? = minimum
        if position < bytes.count, bytes[position] == UInt8(ascii: ",") {
            position += 1
            maximum = number()
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "}") else { return nil }
        return (minimum, maximum, position + 1)
    }

    private mutating func atom() -> Int? {
        let byte = bytes[index]
        switch byte {
        case UInt8(ascii: "\\"): return escape()
        case UInt8(ascii: "["): return characterClass()
        case UInt8(ascii: "("): return group()
        case UInt8(ascii: "."): index += 1; return nil
        case UInt8(ascii: "^"), UInt8(ascii: "$"): index += 1; return 0
        case UInt8(ascii: "/"): index += 1; return 1
        default: index += 1; return 0  // any other byte, including those of multi-byte characters, is not `/`
        }
    }

    /// Escapes outside a class.
    private mutating func escape() -> Int? {
        guard index + 1 < bytes.count else { failed = true; return nil }
        let next = bytes[index + 1]
        index += 2
        if next == UInt8(ascii: "/") { return 1 }
        if next == UInt8(ascii: "Q") {
            var slashes = 0
            while index < bytes.count {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "E") { index += 2; return slashes }
                if bytes[index] == UInt8(ascii: "/") { slashes += 1 }
                index += 1
            }
            return slashes
        }
        if next >= 0x80 || !PatternScanner.isAlphanumeric(next) { return 0 }  // escaped punctuation
        // Classes and single characters that never include `/`, and assertions.
        if "dwshvntrfeaAzZbBG".utf8.contains(next) { return 0 }
        failed = true
        return nil
    }

    /// A class: 0 when it cannot match `/`, else nil.
    private mutating func characterClass() -> Int? {
        var position = index + 1
        let negated = position < bytes.count && bytes[position] == UInt8(ascii: "^")
        if negated { position += 1 }
        var body: [UInt8] = []
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") { body.append(bytes[position]); position += 1 }
        while position < bytes.count, bytes[position] != UInt8(ascii: "]") {
            if bytes[position] == UInt8(ascii: "\\"), position + 1 < bytes.count {
                body += bytes[position...(position + 1)]
                position += 2
                continue
            }
            body.append(bytes[position])
            position += 1
        }
        guard position < bytes.count else { failed = true; return nil }
        index = position + 1
        if body.contains(UInt8(ascii: "[")) || (body.contains(UInt8(ascii: "\\")) && !Self.simpleEscapes(body)) {
            return nil  // POSIX classes, \Q, hex and other escapes: could name `/`
        }
        if negated { return body.contains(UInt8(ascii: "/")) ? 0 : nil }
        return Self.rangesAvoidSlash(body) ? 0 : nil
    }

    /// Whether every escape in a class body is `\d`, `\w`, `\s`, `\h`, `\v` or escaped punctuation.
    private static func simpleEscapes(_ body: [UInt8]) -> Bool {
        var position = 0
        while position < body.count {
            if body[position] == UInt8(ascii: "\\") {
                let next = body[position + 1]
                if PatternScanner.isAlphanumeric(next), !"dwshv".utf8.contains(next) { return false }
                if next >= 0x80 { return false }
                position += 2
            } else {
                position += 1
            }
        }
        return true
    }

    /// Whether a positive class body has no `/` and no range around it.
    private static func rangesAvoidSlash(_ body: [UInt8]) -> Bool {
        if body.contains(UInt8(ascii: "/")) { return false }
        var position = 0
        while position < body.count {
            let low = body[position] == UInt8(ascii: "\\") ? nil : body[position]
            let width = body[position] == UInt8(ascii: "\\") ? 2 : 1
            let dash = position + width
            if dash + 1 < body.count, body[dash] == UInt8(ascii: "-") {
                // A range: its ends must both be plain bytes on the same side of `/`.
                guard let low, body[dash + 1] != UInt8(ascii: "\\") else { return false }
                let high = body[dash + 1]
                if low < UInt8(ascii: "/") && high > UInt8(ascii: "/") { return false }
                position = dash + 2
            } else {
                position += width
            }
        }
        return true
    }

    private mutating func group() -> Int? {
        index += 1
        var zeroWidth = false
        if current == UInt8(ascii: "*") { failed = true; return nil }
        if current == UInt8(ascii: "?") {
            let kind = index + 1 < bytes.count ? bytes[index + 1] : 0
            let after = index + 2 < bytes.count ? bytes[index + 2] : 0
            switch kind {
            case UInt8(ascii: ":"), UInt8(ascii: "|"):
                index += 2
            case UInt8(ascii: "="), UInt8(ascii: "!"):
                index += 2
                zeroWidth = true
            case UInt8(ascii: "<") where after == UInt8(ascii: "=") || after == UInt8(ascii: "!"):
                index += 3
                zeroWidth = true
            case UInt8(ascii: "P") where after != UInt8(ascii: "<"):
                failed = true  // `(?P=name)` and `(?P>name)`: back reference and recursion
                return nil
            case UInt8(ascii: "<"), UInt8(ascii: "'"), UInt8(ascii: "P"):
                let terminator = kind == UInt8(ascii: "'") ? UInt8(ascii: "'") : UInt8(ascii: ">")
                guard let end = bytes[index...].firstIndex(of: terminator) else { failed = true; return nil }
                index = end + 1
            case UInt8(ascii: "#"):
                guard let end = bytes[index...].firstIndex(of: UInt8(ascii: ")")) else { failed = true; return nil }
                index = end + 1
                return 0
            default:
                failed = true  // option settings, conditionals, recursion
                return nil
            }
        }
        let count = alternation()
        guard !failed, current == UInt8(ascii: ")") else { failed = true; return nil }
        index += 1
        return zeroWidth ? 0 : count
    }
}
