/// How a URL's query breaks one of a route's query rules.
enum QueryRuleViolation: Sendable, Hashable {
    /// The value at `value` (a byte range of the URL) does not match rule `rule`'s value pattern.
    case valueMismatch(rule: Int, value: Range<Int>)
    /// Rule `rule` is required and the query has no such item.
    case missing(rule: Int)
    /// Rule `rule` allows one item and the query has `count`.
    case repeated(rule: Int, count: Int)
}

/// A query rule as matching checks it: the name as UTF-8 and the compiled value pattern.
struct QueryCheck: Sendable {
    let name: [UInt8]
    let isRequired: Bool
    let isRepeated: Bool
    let valuePattern: CompiledPattern?
    /// When the value pattern only chooses between plain words, the words: comparing bytes gives
    /// the pattern's answer without running it (see `PatternScanner.literalAlternatives`).
    let valueWords: [[UInt8]]?

}

extension Route {
    /// Checks the query rules against the query at `query` of the URL `url` (already validated by
    /// canonicalization), in rule order, without building strings.
    ///
    /// - Parameters:
    ///   - spare: room for at least `query.count` bytes, where values with escapes or `+` are decoded.
    ///   - scratch: the thread's match data, with room for every value pattern's groups.
    /// - Returns: the first rule broken, or nil when all hold.
    func queryRuleViolation(_ url: UnsafeBufferPointer<UInt8>, query: Range<Int>?, spare: UnsafeMutablePointer<UInt8>,
                            scratch: MatchScratch, limits: MatchLimits) -> QueryRuleViolation? {
        let plan = queryPlan
        guard let base = url.baseAddress else { return plan.rules.isEmpty ? nil : .missing(rule: 0) }
        for index in plan.rules.indices {
            var count = 0
            if let query {
                var itemStart = query.lowerBound
                while itemStart < query.upperBound {
                    // One item: up to the next `&`; its name ends at the first `=`.
                    let itemEnd = WordScan.firstIndex(of: UInt8(ascii: "&"), in: base, from: itemStart, to: query.upperBound)
                    let nameEnd = WordScan.firstIndex(of: UInt8(ascii: "="), in: base, from: itemStart, to: itemEnd)
                    if itemEnd > itemStart, plan.nameMatches(index, base, itemStart..<nameEnd) {
                        count += 1
                        if plan.rules[index].checksValues {
                            let value = min(nameEnd + 1, itemEnd)..<itemEnd
                            let decoded = Self.decodeValue(url, value, into: spare)
                            if !plan.accepts(index, decoded, scratch: scratch, limits: limits) {
                                return .valueMismatch(rule: index, value: value)
                            }
                        }
                    }
                    itemStart = itemEnd + 1
                }
            }
            if plan.rules[index].isRequired, count == 0 { return .missing(rule: index) }
            if !plan.rules[index].isRepeated, count > 1 { return .repeated(rule: index, count: count) }
        }
        return nil
    }

    /// Why the rule is broken, for explanations (`query `page` may appear only once (found 2)`).
    func describe(_ violation: QueryRuleViolation, url: UnsafeBufferPointer<UInt8>) -> String {
        switch violation {
        case let .valueMismatch(index, value):
            let rule = definition.queryRules[index]
            let text = (try? PercentEncoding.decode(UnsafeBufferPointer(rebasing: url[value]), plusIsSpace: true)) ?? ""
            return "query `\(rule.name)` value \"\(text)\" does not match \(rule.valuePattern ?? "")"
        case let .missing(index):
            return "query `\(definition.queryRules[index].name)` is required"
        case let .repeated(index, count):
            return "query `\(definition.queryRules[index].name)` may appear only once (found \(count))"
        }
    }

    /// The decoded bytes of a validated query value: the URL's own bytes when there is nothing to
    /// decode, else decoded into `spare` (`+` is a space).
    @inline(__always)
    private static func decodeValue(_ url: UnsafeBufferPointer<UInt8>, _ range: Range<Int>,
                                    into spare: UnsafeMutablePointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        if WordScan.firstIndex(of: UInt8(ascii: "%"), or: UInt8(ascii: "+"), in: url.baseAddress!, from: range.lowerBound,
                               to: range.upperBound) == range.upperBound {
            return UnsafeBufferPointer(rebasing: url[range])
        }
        var length = 0
        var offset = range.lowerBound
        while offset < range.upperBound {
            let byte = url[offset]
            if byte == UInt8(ascii: "%") {
                spare[length] = PercentEncoding.hexValue(url[offset + 1])! << 4 | PercentEncoding.hexValue(url[offset + 2])!
                offset += 3
            } else {
                spare[length] = byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte
                offset += 1
            }
            length += 1
        }
        return UnsafeBufferPointer(start: spare, count: length)
    }
}
