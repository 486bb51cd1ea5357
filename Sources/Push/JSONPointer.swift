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

extension JSONPointer {
    /// The reference tokens of `pointer` (`""` is the whole document), or nil when it is not an RFC 6901 pointer:
    /// not starting with `/`, or with a `~` not followed by `0` or `1`.
    static func tokens(_ pointer: String) -> [String]? {
        guard !pointer.isEmpty else { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        var tokens: [String] = []
        for part in pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var escaping = false
            for character in part {
                if escaping {
                    switch character {
                    case "0": token.append("~")
                    case "1": token.append("/")
                    default: return nil
                    }
                    escaping = false
                } else if character == "~" {
                    escaping = true
                } else {
                    token.append(character)
                }
            }
            if escaping { return nil }
            tokens.append(token)
        }
        return tokens
    }
}
