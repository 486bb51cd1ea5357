import Foundation
import JSON

/// RFC 6901 JSON pointers, as findings name payload members: `/aps/content-state/stops~1day`.
enum JSONPointer {
    /// `base` followed by `tokens`, each escaped (`~` as `~0`, `/` as `~1`, in that order, so `~1` stays literal).
    static func appending(_ tokens: [String], to base: String) -> String {
        tokens.reduce(base) { pointer, token in
            pointer + "/" + token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
        }
    }

    /// The reference tokens of a `DecodingError`'s coding path: member names, and array indices as numbers
    /// (Foundation's keys for elements carry an `intValue` and the text `Index 3`).
    static func tokens(_ codingPath: [any CodingKey]) -> [String] {
        codingPath.map { key in key.intValue.map(String.init) ?? key.stringValue }
    }

    /// The value under `root` that `tokens` name, if there is one.
    static func value(at tokens: [String], in root: JSONValue) -> JSONValue? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let members):
                guard let member = members[token] else { return nil }
                current = member
            case .array(let elements):
                guard let index = Int(token), elements.indices.contains(index) else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}
