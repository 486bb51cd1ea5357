extension CanonicalURL {
    /// ``string`` without decoding and encoding again, when that would give back the same bytes: the path holds
    /// only bytes a segment keeps as they are (and `/`, so no escape), and the query is non-empty `name=value`
    /// items of bytes a query component keeps as they are (no `%`, no `+`, one `=` each, no empty item).
    /// Nil otherwise, and ``encodedString`` applies. Tests check the two agree.
    var verbatimString: String? {
        var subject = subject
        var source = source
        return subject.withUTF8 { subject -> String? in
            let path = UnsafeBufferPointer(rebasing: subject[pathStart...])
            if hasAuthority, let first = path.first, first != UInt8(ascii: "/") { return nil }
            for byte in path where byte != UInt8(ascii: "/") && !PercentEncoding.pathSegmentAllowed.contains(byte) {
                return nil
            }
            return source.withUTF8 { source -> String? in
                var query = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
                if let queryRange {
                    query = UnsafeBufferPointer(rebasing: source[queryRange])
                    guard Self.isVerbatimQuery(query) else { return nil }
                }
                var text: [UInt8] = []
                text.reserveCapacity(subject.count + query.count + 4)
                text.append(contentsOf: subject[..<schemeLength])
                if hasAuthority {
                    text.append(contentsOf: "://".utf8)
                    text.append(contentsOf: subject[(schemeLength + 3)..<pathStart])
                } else {
                    text.append(UInt8(ascii: ":"))
                }
                text.append(contentsOf: path)
                if !query.isEmpty {
                    text.append(UInt8(ascii: "?"))
                    text.append(contentsOf: query)
                }
                return String(decoding: text, as: UTF8.self)
            }
        }
    }

    /// Whether a raw query is `name=value` items joined by `&`, each with a non-empty name and exactly one `=`,
    /// every other byte one a query component keeps as it is. An empty query is not: its items are none, so the
    /// string has no `?`, which the piecewise form handles.
    private static func isVerbatimQuery(_ query: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !query.isEmpty else { return false }
        var itemStart = true
        var equalsInItem = 0
        for byte in query {
            switch byte {
            case UInt8(ascii: "&"):
                guard equalsInItem == 1 else { return false }
                itemStart = true
                equalsInItem = 0
            case UInt8(ascii: "="):
                guard !itemStart else { return false }
                equalsInItem += 1
                itemStart = false
            default:
                guard PercentEncoding.queryComponentAllowed.contains(byte) else { return false }
                itemStart = false
            }
        }
        return equalsInItem == 1
    }
}
