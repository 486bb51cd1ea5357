/// The values captured by a route template's `{name}` segments, percent-decoded.
public struct PathParameters: Sendable, Equatable {
    /// The captures in template order.
    public private(set) var values: [(name: String, value: String)]

    /// Creates parameters (the router does this; handler tests may too).
    public init(_ values: [(name: String, value: String)] = []) {
        self.values = values
    }

    /// The value captured for `name`, or nil when the template has no such segment.
    public subscript(name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The value captured for `name`.
    /// - Throws: a 500 ``APIError`` when the route's template has no `{name}`, which is a bug in the
    ///   handler's registration rather than in the request.
    public func require(_ name: String) throws -> String {
        guard let value = self[name] else {
            throw APIError(.internal, status: .internalServerError, message: "the route has no path parameter {\(name)}")
        }
        return value
    }

    public static func == (lhs: PathParameters, rhs: PathParameters) -> Bool {
        lhs.values.elementsEqual(rhs.values) { $0.name == $1.name && $0.value == $1.value }
    }
}
