import Foundation

/// A metric's label set, kept sorted by name so equal sets compare and render equally.
struct MetricLabels: Hashable, Comparable, Sendable {
    let pairs: [(name: String, value: String)]

    init(_ labels: [String: String]) {
        for name in labels.keys {
            precondition(Self.isValidLabelName(name), "invalid metric label name \"\(name)\"")
        }
        pairs = labels.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) }
    }

    /// `{a="1",b="2"}`, with `extra` last (used for `le`), or nothing for an empty set.
    func rendered(extra: (String, String)? = nil) -> String {
        var parts = pairs.map { "\($0.name)=\"\(Self.escapeLabelValue($0.value))\"" }
        if let extra { parts.append("\(extra.0)=\"\(extra.1)\"") }
        return parts.isEmpty ? "" : "{" + parts.joined(separator: ",") + "}"
    }

    static func == (lhs: MetricLabels, rhs: MetricLabels) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.name == $1.name && $0.value == $1.value }
    }

    func hash(into hasher: inout Hasher) {
        for pair in pairs {
            hasher.combine(pair.name)
            hasher.combine(pair.value)
        }
    }

    static func < (lhs: MetricLabels, rhs: MetricLabels) -> Bool {
        lhs.rendered() < rhs.rendered()
    }

    static func isValidMetricName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" || first == ":" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" || $0 == ":" }
    }

    static func isValidLabelName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_" else { return false }
        return name.unicodeScalars.allSatisfy { $0.isASCIILetter || $0.isASCIIDigit || $0 == "_" }
    }

    /// Label values escape backslash, double quote and newline.
    static func escapeLabelValue(_ value: String) -> String {
        value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Help text escapes backslash and newline.
    static func escapeHelp(_ help: String) -> String {
        help.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\n", with: "\\n")
    }

    /// Integral values without a fraction, others as Swift prints them (which Prometheus parses).
    static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value > 0 ? "+Inf" : "-Inf" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}

extension Unicode.Scalar {
    fileprivate var isASCIILetter: Bool { ("a"..."z").contains(self) || ("A"..."Z").contains(self) }
    fileprivate var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}
