import Foundation
import JSON

/// When a change of one content-state member counts as significant, so that the planner pushes it.
///
/// The rule language is one member, named by an RFC 6901 JSON pointer into the content state, and a threshold:
///
/// | JSON | holds when the member… |
/// |---|---|
/// | `{"pointer": "/status"}` | changed at all (any JSON value; appearing or disappearing counts) |
/// | `{"pointer": "/progress", "threshold": 0.05}` | is a number that moved by at least 0.05 |
/// | `{"pointer": "/eta", "threshold": 0.1, "relative": true}` | moved by at least 10 % of its last pushed value |
///
/// A relative rule on a last value of 0 holds on any move (no percentage of zero is meaningful). A member that is
/// not a number on either side, under a threshold, counts as changed when it differs.
public struct SignificanceRule: Sendable, Hashable, Codable {
    /// The member, as a JSON pointer into the content state (`/progress`, `/driver/name`).
    public var pointer: String
    /// The smallest move that counts; `nil` for any change.
    public var threshold: Double?
    /// Whether ``threshold`` is a fraction of the last pushed value (0.05 is 5 %) rather than an absolute amount.
    public var relative: Bool?

    /// Creates a rule.
    public init(pointer: String, threshold: Double? = nil, relative: Bool = false) {
        self.pointer = pointer
        self.threshold = threshold
        self.relative = relative ? true : nil
    }

    /// Whether the change from `old` to `new` is significant under this rule.
    func holds(from old: JSONValue, to new: JSONValue) -> Bool {
        let tokens = JSONPointer.tokens(pointer) ?? []
        let before = JSONPointer.value(at: tokens, in: old)
        let after = JSONPointer.value(at: tokens, in: new)
        guard before != after else { return false }
        guard let threshold, let from = before?.numberValue, let to = after?.numberValue else { return true }
        let move = abs(to - from)
        if relative == true {
            return from == 0 || move >= threshold * abs(from)
        }
        return move >= threshold
    }
}

/// A condition on one content-state member: it is (or just became) one of some values. Alert and completion rules
/// are written with it: `{"pointer": "/status", "values": ["delivered"]}`.
public struct MemberRule: Sendable, Hashable, Codable {
    /// The member, as a JSON pointer into the content state.
    public var pointer: String
    /// The values that make the rule hold (compared as JSON: `3` and `3.0` differ, as they do on the wire).
    public var values: [JSONValue]

    /// Creates a rule.
    public init(pointer: String, values: [JSONValue]) {
        self.pointer = pointer
        self.values = values
    }

    /// Whether the member of `state` is among ``values``.
    func matches(_ state: JSONValue) -> Bool {
        guard let tokens = JSONPointer.tokens(pointer), let value = JSONPointer.value(at: tokens, in: state) else {
            return false
        }
        return values.contains(value)
    }

    /// Whether the member changed into ``values``: it matches now and did not in `old` (or nothing was pushed yet).
    func became(from old: JSONValue?, to new: JSONValue) -> Bool {
        matches(new) && !(old.map(matches) ?? false)
    }
}

extension JSONValue {
    /// The value as a number, for integers and doubles.
    var numberValue: Double? {
        switch self {
        case .int(let value): Double(value)
        case .double(let value): value
        default: nil
        }
    }
}
