/// A route path such as `/v1/instances/{id}/entry`: literal segments and `{name}` parameter segments.
///
/// Empty segments are ignored both here and in request paths, so `/healthz/` matches `/healthz`.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One segment of a template.
    public enum Segment: Sendable, Hashable {
        /// Matches exactly this text (compared with the request segment after percent-decoding).
        case literal(String)
        /// Matches any one non-empty segment and captures it under this name.
        case parameter(String)
    }

    /// The segments in order.
    public let segments: [Segment]

    /// The template as written, normalised (`/v1/instances/{id}`); used as the metrics `endpoint` label.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// Parses a template.
    ///
    /// Templates are written by us, not by clients, so a malformed one (no leading `/`, a `{` without `}`,
    /// an empty or repeated parameter name) is a programming error and stops the process.
    public init(_ text: String) {
        precondition(text.hasPrefix("/"), "route template \"\(text)\" must start with /")
        var names: Set<String> = []
        segments = text.split(separator: "/", omittingEmptySubsequences: true).map { part in
            if part.hasPrefix("{") || part.hasSuffix("}") || part.contains("{") || part.contains("}") {
                precondition(
                    part.hasPrefix("{") && part.hasSuffix("}") && part.count > 2
                        && !part.dropFirst().dropLast().contains { $0 == "{" || $0 == "}" },
                    "route template \"\(text)\": a parameter segment must be exactly {name}"
                )
                let name = String(part.dropFirst().dropLast())
                precondition(names.insert(name).inserted, "route template \"\(text)\" repeats {\(name)}")
                return .parameter(name)
            }
            return .literal(String(part))
        }
    }
}
