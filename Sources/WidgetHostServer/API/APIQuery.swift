import Foundation

/// Reading the query parameters of API requests.
enum APIQuery {
    /// The ISO 8601 date in query parameter `name` (with or without fractional seconds), or nil when absent.
    /// - Throws: 400 `invalid_query` when present but not a date.
    static func date(_ name: String, in request: HTTPRequest) throws -> Date? {
        guard let text = request.query(name) else { return nil }
        guard let date = parseDate(text) else {
            throw APIError.invalidQuery(name, "expected an ISO 8601 date-time such as 2026-01-01T09:30:00Z")
        }
        return date
    }

    /// Parses an ISO 8601 date-time with a time zone, with or without fractional seconds, and nothing else.
    static func parseDate(_ text: String) -> Date? {
        ISO8601Text.date(from: text)
    }
}
