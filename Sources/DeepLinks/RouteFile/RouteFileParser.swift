/// Parses the text of a `.routes` file into route definitions and syntax diagnostics.
///
/// The format (see Routes/README.md): a line `route NAME` starts a route; the indented lines after
/// it are its attributes, one per line, `KEY VALUE`; the value runs to the end of the line with
/// surrounding blanks removed and no escaping. Lines whose first non-blank character is `#` are
/// comments; blank lines are ignored. Checks that need the whole table (duplicate names, patterns)
/// happen when the table is built.
public struct RouteFileParser: Sendable {
    /// Attribute names a route may have.
    public static let attributes: Set<String> = ["pattern", "target", "query", "priority", "families", "sources", "example", "note"]

    /// The file name used in locations.
    public let file: String

    /// Creates a parser whose locations name `file`.
    public init(file: String) { self.file = file }

    /// Parses `text`. Never throws: every problem becomes a diagnostic, and parsing goes on.
    public func parse(_ text: String) -> (routes: [RouteDefinition], diagnostics: [RouteDiagnostic]) {
        var routes: [RouteDefinition] = []
        var diagnostics: [RouteDiagnostic] = []
        var current: PartialRoute?

        func finish() {
            guard let partial = current else { return }
            current = nil
            if let route = partial.build(into: &diagnostics) { routes.append(route) }
        }

        var lineNumber = 0
        for rawLine in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let line = rawLine.utf8.last == UInt8(ascii: "\r") ? rawLine.dropLast() : rawLine
            let indent = line.utf8.prefix { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }.count
            let content = line.utf8.dropFirst(indent)
            if content.isEmpty || content.first == UInt8(ascii: "#") { continue }
            let (key, valueOffset, value) = Self.splitKeyValue(Substring(content))
            let keyLocation = SourceLocation(file: file, line: lineNumber, column: indent + 1)
            let valueLocation = keyLocation.advanced(by: valueOffset)

            if indent == 0 {
                guard key == "route" else {
                    diagnostics.append(.init(.error, .syntax, at: keyLocation,
                                             "expected `route NAME` or an indented attribute, found `\(key)`"))
                    continue
                }
                finish()
                current = PartialRoute(name: value, location: keyLocation, nameLocation: valueLocation)
                if value.isEmpty {
                    diagnostics.append(.init(.error, .invalidRouteName, at: keyLocation, "route without a name"))
                } else if !Self.isValidRouteName(value) {
                    diagnostics.append(.init(.error, .invalidRouteName, at: valueLocation,
                                             "invalid route name `\(value)`: use letters, digits, `.`, `_` and `-`"))
                }
                continue
            }
            guard current != nil else {
                diagnostics.append(.init(.error, .syntax, at: keyLocation, "attribute `\(key)` outside a route"))
                continue
            }
            current!.add(key: key, value: value, keyLocation: keyLocation, valueLocation: valueLocation, diagnostics: &diagnostics)
        }
        finish()
        return (routes, diagnostics)
    }

    /// Splits `key   value text` into the key, the byte offset of the value, and the trimmed value.
    private static func splitKeyValue(_ content: Substring) -> (String, Int, String) {
        let bytes = Array(content.utf8)
        var keyEnd = 0
        while keyEnd < bytes.count, bytes[keyEnd] != UInt8(ascii: " "), bytes[keyEnd] != UInt8(ascii: "\t") { keyEnd += 1 }
        var valueStart = keyEnd
        while valueStart < bytes.count, bytes[valueStart] == UInt8(ascii: " ") || bytes[valueStart] == UInt8(ascii: "\t") { valueStart += 1 }
        var valueEnd = bytes.count
        while valueEnd > valueStart, bytes[valueEnd - 1] == UInt8(ascii: " ") || bytes[valueEnd - 1] == UInt8(ascii: "\t") { valueEnd -= 1 }
        return (String(decoding: bytes[0..<keyEnd], as: UTF8.self), valueStart,
                String(decoding: bytes[valueStart..<valueEnd], as: UTF8.self))
    }

    static func isValidRouteName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z")
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }
}

/// A route whose attributes are still being read.
private struct PartialRoute {
    let name: String
    let location: SourceLocation
    let nameLocation: SourceLocation
    var pattern: (String, SourceLocation)?
    var target: String?
    var priority: Int?
    var families: [WidgetFamilyName] = []
    var sources: [TapSource] = []
    var queryRules: [QueryRule] = []
    var examples: [(String, SourceLocation)] = []
    var note: String?
    var seen: [String: SourceLocation] = [:]

    mutating func add(key: String, value: String, keyLocation: SourceLocation, valueLocation: SourceLocation,
                      diagnostics: inout [RouteDiagnostic]) {
        guard RouteFileParser.attributes.contains(key) else {
            let known = RouteFileParser.attributes.sorted().joined(separator: ", ")
            diagnostics.append(.init(.error, .unknownAttribute, at: keyLocation, "unknown attribute `\(key)` (known: \(known))"))
            return
        }
        let singular: Set<String> = ["pattern", "target", "priority", "families", "sources", "note"]
        if singular.contains(key), let first = seen[key] {
            diagnostics.append(.init(.error, .duplicateAttribute, at: keyLocation,
                                     "`\(key)` given twice for route `\(name)` (first at line \(first.line))"))
            return
        }
        seen[key] = keyLocation
        if value.isEmpty, key != "note" {
            diagnostics.append(.init(.error, .badValue, at: keyLocation, "`\(key)` needs a value"))
            return
        }
        switch key {
        case "pattern": pattern = (value, valueLocation)
        case "target": target = value
        case "note": note = value
        case "example": examples.append((value, valueLocation))
        case "priority":
            if let number = Int(value) { priority = number } else {
                diagnostics.append(.init(.error, .badValue, at: valueLocation, "priority must be an integer, found `\(value)`"))
            }
        case "families":
            forEachWord(value, at: valueLocation) { word, location in
                if let family = WidgetFamilyName(rawValue: word) { families.append(family) } else {
                    let known = WidgetFamilyName.allCases.map(\.rawValue).joined(separator: ", ")
                    diagnostics.append(.init(.error, .badValue, at: location, "unknown family `\(word)` (known: \(known))"))
                }
            }
        case "sources":
            forEachWord(value, at: valueLocation) { word, location in
                if let source = TapSource(rawValue: word) { sources.append(source) } else {
                    diagnostics.append(.init(.error, .badValue, at: location, "unknown source `\(word)` (known: widgetURL, link)"))
                }
            }
        case "query": addQueryRule(value, at: valueLocation, diagnostics: &diagnostics)
        default: break
        }
    }

    private mutating func addQueryRule(_ value: String, at location: SourceLocation, diagnostics: inout [RouteDiagnostic]) {
        let modeWords: Set<String> = ["required", "optional", "repeated"]
        var words: [(String, SourceLocation)] = []
        var restOffset: Int?
        var offset = 0
        for piece in value.split(separator: " ", omittingEmptySubsequences: false) {
            defer { offset += piece.utf8.count + 1 }
            if piece.isEmpty { continue }
            // After the name and at least one mode, the rest of the line is the value pattern.
            if words.count >= 2, !modeWords.contains(String(piece)) {
                restOffset = offset
                break
            }
            words.append((String(piece), location.advanced(by: offset)))
        }
        let name = words[0].0
        let modes = words.dropFirst()
        if let bad = modes.first(where: { !modeWords.contains($0.0) }) ?? (modes.isEmpty ? words[0] : nil) {
            diagnostics.append(.init(.error, .badQueryRule, at: bad.1,
                                     "query rule for `\(name)` needs a mode (required, optional, repeated or `required repeated`), found `\(modes.isEmpty ? "nothing" : bad.0)`"))
            return
        }
        let modeNames = modes.map(\.0)
        let isRequired = modeNames.contains("required")
        let isRepeated = modeNames.contains("repeated")
        if (isRequired && modeNames.contains("optional")) || Set(modeNames).count != modeNames.count {
            diagnostics.append(.init(.error, .badQueryRule, at: modes.first!.1, "contradictory modes for query `\(name)`"))
            return
        }
        if queryRules.contains(where: { $0.name == name }) {
            diagnostics.append(.init(.error, .badQueryRule, at: location, "two query rules for `\(name)`"))
            return
        }
        let valuePattern = restOffset.map { String(value.utf8.dropFirst($0))! }
        queryRules.append(QueryRule(name: name, isRequired: isRequired, isRepeated: isRepeated, valuePattern: valuePattern,
                                    valuePatternLocation: location.advanced(by: restOffset ?? 0)))
    }

    /// Calls `body` for each word of a list separated by blanks or commas, with its location.
    private func forEachWord(_ value: String, at location: SourceLocation, _ body: (String, SourceLocation) -> Void) {
        let bytes = Array(value.utf8)
        var start = 0
        while start < bytes.count {
            while start < bytes.count, Self.isSeparator(bytes[start]) { start += 1 }
            var end = start
            while end < bytes.count, !Self.isSeparator(bytes[end]) { end += 1 }
            if end > start { body(String(decoding: bytes[start..<end], as: UTF8.self), location.advanced(by: start)) }
            start = end
        }
    }

    private static func isSeparator(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: ",")
    }

    func build(into diagnostics: inout [RouteDiagnostic]) -> RouteDefinition? {
        var complete = true
        if pattern == nil {
            diagnostics.append(.init(.error, .missingAttribute, at: nameLocation, "route `\(name)` has no pattern"))
            complete = false
        }
        if target == nil {
            diagnostics.append(.init(.error, .missingAttribute, at: nameLocation, "route `\(name)` has no target"))
            complete = false
        }
        if examples.isEmpty {
            diagnostics.append(.init(.error, .missingExample, at: nameLocation, "route `\(name)` has no example"))
            complete = false
        }
        guard complete, let (patternText, patternLocation) = pattern, let target else { return nil }
        var route = RouteDefinition(name: name, pattern: patternText, target: target, queryRules: queryRules,
                                    priority: priority ?? 0, families: families, sources: sources,
                                    examples: examples.map(\.0), note: note, location: nameLocation)
        route.patternLocation = patternLocation
        route.exampleLocations = examples.map(\.1)
        return route
    }
}
