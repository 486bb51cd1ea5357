/// Parameters and query values as typed values (`Int`, `Double`, `Bool`, or any other
/// `LosslessStringConvertible`), as typed deep-link routers offer them: a route's pattern says what
/// a value looks like, the caller says what it is.
extension RouteMatch {
    /// The value of path parameter `name` as a `Value`: nil when the parameter did not take part in
    /// the match or its decoded text is not a `Value` (`Int("12a")`).
    @inlinable
    public func parameter<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        parameter(name).flatMap(Value.init)
    }

    /// The first value of the query item `name` as a `Value`, nil when there is none or it is not a `Value`.
    @inlinable
    public func queryValue<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        queryValue(name).flatMap(Value.init)
    }

    /// The values of the query items named `name`, in order, as `Value`s; nil when one of them is
    /// not a `Value` (a repeated `id=1&id=x`), so that no value is dropped silently.
    @inlinable
    public func queryValues<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> [Value]? {
        RouteMatch.converted(queryValues(name), as: type)
    }

    /// `values` as `Value`s, nil when one does not convert.
    @usableFromInline
    static func converted<Value: LosslessStringConvertible>(_ values: [String], as type: Value.Type) -> [Value]? {
        var converted: [Value] = []
        converted.reserveCapacity(values.count)
        for value in values {
            guard let typed = Value(value) else { return nil }
            converted.append(typed)
        }
        return converted
    }
}

extension RouteMatchView {
    /// The value of path parameter `name` as a `Value` (see `RouteMatch.parameter(_:as:)`).
    public func parameter<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        parameter(name).flatMap(Value.init)
    }

    /// The first value of the query item `name` as a `Value` (see `RouteMatch.queryValue(_:as:)`).
    public func queryValue<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> Value? {
        queryValue(name).flatMap(Value.init)
    }

    /// The values of the query items named `name` as `Value`s; nil when one of them is not a `Value`.
    public func queryValues<Value: LosslessStringConvertible>(_ name: String, as type: Value.Type) -> [Value]? {
        RouteMatch.converted(queryValues(name), as: type)
    }
}
