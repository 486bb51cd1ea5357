import DeepLinks
import Foundation
import HTTPServer
import JSON
import WidgetHost

extension V1 {
    /// `POST /v1/routes/match` and `/v1/routes/explain`: a URL and, optionally, how it was tapped.
    struct RouteRequest: Decodable {
        var url: String
        /// `widgetURL` or `link`.
        var source: String?
        /// A WidgetKit family name, or `liveActivity`.
        var family: String?

        /// Decodes a request body as ``StrictJSONDecoder`` does. The usual body (an object of string members the
        /// type knows, `url` among them) is read straight from the parsed tree; anything else goes through the
        /// decoder, so a rejected body gets the decoder's error.
        /// - Throws: ``APIError``, as ``HTTPRequest/decode(_:using:)``.
        init(body: Data) throws {
            if let url = Self.compactURLOnly(body) {
                self.url = url
                return
            }
            if case .object(let members)? = try? JSONParser.parse(body), case .string(let url)? = members["url"],
               case .some(let source) = Self.optionalText(members["source"]),
               case .some(let family) = Self.optionalText(members["family"]),
               members.count == 1 + (source == nil ? 0 : 1) + (family == nil ? 0 : 1) {
                self.url = url
                self.source = source
                self.family = family
                return
            }
            self = try APIError.decodingBody(as: RouteRequest.self) {
                try StrictJSONDecoder().decode(RouteRequest.self, from: body)
            }
        }

        /// The URL of a body that is exactly `{"url":"…"}` with no escapes, whitespace or control characters in it
        /// (what clients send most), read without parsing; nil for any other body.
        private static func compactURLOnly(_ body: Data) -> String? {
            body.withUnsafeBytes { raw -> String? in
                let (prefix, suffix): (StaticString, StaticString) = (#"{"url":""#, #""}"#)
                let (head, tail) = (prefix.utf8CodeUnitCount, suffix.utf8CodeUnitCount)
                guard raw.count >= head + tail, let base = raw.baseAddress,
                      memcmp(base, prefix.utf8Start, head) == 0,
                      memcmp(base + (raw.count - tail), suffix.utf8Start, tail) == 0 else { return nil }
                let value = UnsafeBufferPointer(rebasing: raw.bindMemory(to: UInt8.self)[head..<(raw.count - tail)])
                var isASCII = true
                for byte in value {
                    if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return nil }
                    if byte >= 0x80 { isASCII = false }
                }
                // ASCII is UTF-8 as it stands: only other text is validated.
                return isASCII ? String(decoding: value, as: UTF8.self) : String(validating: value, as: UTF8.self)
            }
        }

        /// `.some(nil)` for an absent member, `.some(text)` for a string, nil for anything else.
        private static func optionalText(_ member: JSONValue?) -> String?? {
            switch member {
            case nil: .some(nil)
            case .string(let text)?: .some(text)
            default: nil
            }
        }

        /// The tap context, or 400 `invalid_field` for an unknown source or family.
        func context() throws -> TapContext {
            var context = TapContext()
            if let source {
                guard let parsed = TapSource(rawValue: source) else {
                    throw APIError.invalidField("source", "expected one of \(TapSource.allCases.map(\.rawValue))")
                }
                context.source = parsed
            }
            if let family {
                guard let parsed = WidgetFamilyName(rawValue: family) else {
                    throw APIError.invalidField("family", "expected a widget family name or liveActivity")
                }
                context.family = parsed
            }
            return context
        }
    }

    /// `POST /v1/routes/build`: a route name, its path parameters and query items.
    struct BuildRequest: Decodable {
        var route: String
        var parameters: StringMap?
        var query: [QueryPair]?
    }

    /// `POST /v1/routes/build`'s answer.
    struct BuiltURL: Encodable {
        var url: String
    }

    /// One query item.
    struct QueryPair: Codable {
        var name: String
        var value: String
    }

    /// `POST /v1/routes/reload`'s answer: the table now in use.
    struct RouteReload: Encodable {
        /// The directory read.
        var directory: String
        /// The number of routes.
        var routes: Int
        /// 1 for the table the daemon started with, one more for each reload since.
        var generation: Int
        /// What loading warned about (the table was taken anyway).
        var warnings: [RouteProblem]
    }

    /// One problem in a route file, where it is.
    struct RouteProblem: Encodable {
        var file: String
        var line: Int
        /// In UTF-8 bytes, from 1.
        var column: Int
        /// `error` or `warning`.
        var severity: String
        /// A stable name, e.g. `bad-pattern`.
        var code: String
        var message: String
        /// `file:line:column: severity: message [code]`, as `widgethost routes lint` prints it.
        var text: String

        init(_ diagnostic: RouteDiagnostic) {
            file = diagnostic.location.file
            line = diagnostic.location.line
            column = diagnostic.location.column
            severity = diagnostic.severity.rawValue
            code = diagnostic.code.rawValue
            message = diagnostic.message
            text = diagnostic.description
        }

        /// The problem as a JSON value, for an error's `detail`: the members a response body has (encoded, not
        /// listed again; an error path, where a round trip through the encoder costs nothing that matters).
        var json: JSONValue {
            (try? JSONValue(parsing: HTTPResponse.makeJSONEncoder().encode(self))) ?? .null
        }
    }

    /// `GET /v1/routes`.
    struct RouteList: Encodable {
        var routes: [RouteInfo]
    }

    /// One deep-link route as its `.routes` file declares it.
    struct RouteInfo: Encodable {
        var name: String
        var pattern: String
        var target: String
        var priority: Int
        var parameters: [String]
        var families: [String]
        var sources: [String]
        var examples: [String]
        var note: String?

        init(_ route: DeepLinks.Route) {
            let definition = route.definition
            name = definition.name
            pattern = definition.pattern
            target = definition.target
            priority = definition.priority
            parameters = route.parameterNames
            families = definition.families.map(\.rawValue)
            sources = definition.sources.map(\.rawValue)
            examples = definition.examples
            note = definition.note
        }
    }

    /// `POST /v1/routes/match`'s answer: the route, or why none matched.
    package struct Match: Encodable {
        var matched: Bool
        var route: String?
        var target: String?
        var parameters: StringMap?
        var query: [QueryPair]?
        var canonicalUrl: String?
        /// When nothing matched: why.
        var reason: String?

        package init(_ match: RouteMatch) {
            matched = true
            route = match.routeName
            target = match.target
            parameters = match.parameters
            query = match.queryItems.map { QueryPair(name: $0.name, value: $0.value) }
            canonicalUrl = match.canonicalURL.string
        }

        package init(noMatch reason: String) {
            matched = false
            self.reason = reason
        }
    }

    /// `POST /v1/routes/matches`' answer: every route that takes the URL, in the order routing tries them.
    package struct MatchList: Encodable {
        /// The matches, the winner first; empty when no route takes the URL.
        var matches: [Match]
        /// When no route takes the URL: why.
        var reason: String?

        /// Every match of `result`, or none and the reason.
        package init(_ result: Result<[RouteMatch], RoutingFailure>) {
            switch result {
            case .success(let found): matches = found.map(Match.init)
            case .failure(let failure): (matches, reason) = ([], failure.description)
            }
        }
    }

    /// `POST /v1/routes/explain`'s answer: every candidate route and what happened to it.
    struct Explanation: Encodable {
        var url: String
        var canonicalUrl: String
        var dispatchedOn: String
        var skippedByDispatch: Int
        var winner: String?
        var candidates: [Candidate]

        init(_ explanation: RouteExplanation, canonical: CanonicalURL) {
            url = explanation.url
            canonicalUrl = canonical.string
            dispatchedOn = explanation.dispatchedOn
            skippedByDispatch = explanation.skippedByDispatch
            winner = explanation.winner
            candidates = explanation.candidates.map(Candidate.init)
        }
    }

    /// One candidate route of an explanation.
    struct Candidate: Encodable {
        var route: String
        var pattern: String
        var priority: Int
        /// `won`, `shadowed`, `pattern-mismatch`, `query-rejected`, `context-rejected` or `match-limit-exceeded`.
        var outcome: String
        /// For `shadowed`: the route that wins instead.
        var shadowedBy: String?
        /// For `query-rejected`: which query rule refused the URL.
        var reason: String?
        var parameters: StringMap
        /// The outcome as a sentence.
        var explanation: String

        init(_ candidate: RouteExplanation.Candidate) {
            route = candidate.routeName
            pattern = candidate.pattern
            priority = candidate.priority
            parameters = candidate.parameters
            explanation = candidate.outcome.description
            switch candidate.outcome {
            case .won: outcome = "won"
            case .shadowed(let winner):
                outcome = "shadowed"
                shadowedBy = winner
            case .patternMismatch: outcome = "pattern-mismatch"
            case .queryRejected(let why):
                outcome = "query-rejected"
                reason = why
            case .contextRejected: outcome = "context-rejected"
            case .matchLimitExceeded: outcome = "match-limit-exceeded"
            }
        }
    }
}
