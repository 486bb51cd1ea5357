/// The part of every subject a route can match that is known before running its pattern, at
/// the most specific of three levels: scheme (`myapp:`), scheme and host (`myapp://task`), or
/// scheme, host and first path segment (`https://example.com/task`).
struct DispatchKey: Sendable, Hashable {
    /// How much of the subject's start is known.
    enum Level: Int, Sendable, Comparable {
        case none = 0, scheme, host, firstSegment
        static func < (lhs: Level, rhs: Level) -> Bool { lhs.rawValue < rhs.rawValue }
    }

    let level: Level
    /// The keys at levels 1...level: `myapp:`, `myapp://task`, `myapp://task/42`.
    let keys: [[UInt8]]

    init(level: Level, keys: [[UInt8]]) {
        self.level = level
        self.keys = keys
    }

    /// Derives the key from a pattern's literal prefix.
    init(literalPrefix prefix: [UInt8], isWholePattern: Bool) {
        let keys = DispatchKey.keys(literalPrefix: prefix, isWholePattern: isWholePattern)
        self.init(level: Level(rawValue: keys.count)!, keys: keys)
    }

    private static func keys(literalPrefix prefix: [UInt8], isWholePattern: Bool) -> [[UInt8]] {
        var keys: [[UInt8]] = []
        guard let colon = prefix.firstIndex(of: UInt8(ascii: ":")), colon > 0,
              prefix[0..<colon].allSatisfy(DispatchKey.isSchemeByte) else { return keys }
        keys.append(Array(prefix[...colon]))
        guard prefix.count >= colon + 3, prefix[colon + 1] == UInt8(ascii: "/"), prefix[colon + 2] == UInt8(ascii: "/") else { return keys }
        let hostStart = colon + 3
        guard let slash = prefix[hostStart...].firstIndex(of: UInt8(ascii: "/")) else {
            if isWholePattern { keys.append(prefix) }
            return keys
        }
        keys.append(Array(prefix[..<slash]))
        if let next = prefix[(slash + 1)...].firstIndex(of: UInt8(ascii: "/")) {
            keys.append(Array(prefix[..<next]))
        } else if isWholePattern {
            keys.append(prefix)
        }
        return keys
    }

    private static func isSchemeByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
    }

    /// A readable form for explanations: `myapp://task/*`.
    var description: String {
        guard let last = keys.last else { return "*" }
        let text = String(decoding: last, as: UTF8.self)
        switch level {
        case .none: return "*"
        case .scheme: return text + "*"
        case .host: return text + "/*"
        case .firstSegment: return text
        }
    }
}
