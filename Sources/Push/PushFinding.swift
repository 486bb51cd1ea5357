/// One thing wrong (or risky) with a push, as ``PushChecker`` reports it.
///
/// A device never says why it dropped a push; a finding says it before the push is sent: which rule, where in the
/// payload (or which header), and what to do instead.
public struct PushFinding: Sendable, Hashable, CustomStringConvertible {
    /// Whether the push fails (an error) or works badly (a warning).
    public enum Severity: String, Sendable, Hashable {
        /// APNs refuses the push, or the device drops it or shows something other than intended.
        case error
        /// The device applies the push, but the result is likely not what the sender wants.
        case warning
    }

    /// The rule broken; its severity is the code's.
    public var code: PushFindingCode
    /// The RFC 6901 pointer of the offending payload member (`/aps/content-state/stopsAway`; `""` for the whole
    /// payload), or `nil` when a header is at fault.
    public var pointer: String?
    /// The offending header's name (lower case), when a header is at fault.
    public var header: String?
    /// What is wrong and how to fix it, in a sentence or two.
    public var message: String

    /// Creates a finding.
    public init(_ code: PushFindingCode, pointer: String? = nil, header: String? = nil, message: String) {
        self.code = code
        self.pointer = pointer
        self.header = header
        self.message = message
    }

    /// The code's severity.
    public var severity: Severity { code.severity }

    public var description: String {
        "\(severity.rawValue) \(code.rawValue) at \(pointer ?? header ?? "?"): \(message)"
    }
}
