import Foundation
import HTTPServer
import JSON

/// Reading the query parameters of API requests.
enum APIQuery {
    /// The date-time in query parameter `name` (``DateTimeFormat/instant``), or nil when absent.
    /// - Throws: 422 `invalid_date` when present but not such a date-time.
    static func date(_ name: String, in request: HTTPRequest) throws -> Date? {
        guard let text = request.query(name) else { return nil }
        do {
            return try DateTimeText.date(from: text, format: .instant)
        } catch {
            throw APIError.invalidDate(name, in: "query", value: text, error)
        }
    }
}

extension APIQuery {
    /// The Boolean in query parameter `name` (`true` or `false`), or nil when absent.
    /// - Throws: 400 `invalid_query` for any other text.
    static func bool(_ name: String, in request: HTTPRequest) throws -> Bool? {
        guard let text = request.query(name) else { return nil }
        switch text {
        case "true": return true
        case "false": return false
        default: throw APIError.invalidQuery(name, "expected true or false")
        }
    }

    /// The decimal integer in query parameter `name`, within `range`, or nil when absent.
    /// - Throws: 400 `invalid_query` when present but not such an integer.
    static func integer(_ name: String, in request: HTTPRequest, range: ClosedRange<Int>) throws -> Int? {
        guard let text = request.query(name) else { return nil }
        guard text.utf8.allSatisfy({ (0x30...0x39).contains($0) || $0 == 0x2D }), let value = Int(text),
              range.contains(value) else {
            throw APIError.invalidQuery(name, "expected an integer from \(range.lowerBound) to \(range.upperBound)")
        }
        return value
    }

    /// The value of query parameter `name` when it is one of `values`, or nil when absent.
    /// - Throws: 400 `invalid_query` for any other text.
    static func choice(_ name: String, in request: HTTPRequest, among values: [String]) throws -> String? {
        guard let text = request.query(name) else { return nil }
        guard values.contains(text) else {
            throw APIError.invalidQuery(name, "expected one of \(values.joined(separator: ", "))")
        }
        return text
    }
}

extension APIQuery {
    /// The values of query parameter `name`, repeated (`?state=a&state=b`) or as a comma list (`?state=a,b`), or nil
    /// when absent.
    /// - Throws: 400 `invalid_query` for an empty value (a filter that matches nothing is a typo, not a question).
    static func list(_ name: String, in request: HTTPRequest) throws -> [String]? {
        let items = request.queryItems.filter { $0.name == name }
        guard !items.isEmpty else { return nil }
        var values: [String] = []
        for item in items {
            let parts = (item.value ?? "").split(separator: ",", omittingEmptySubsequences: false)
            guard !parts.contains(where: \.isEmpty) else {
                throw APIError.invalidQuery(name, "expected one or more comma-separated values, each non-empty")
            }
            values += parts.map(String.init)
        }
        return values
    }
}
