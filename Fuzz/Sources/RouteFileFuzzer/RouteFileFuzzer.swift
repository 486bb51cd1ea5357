import DeepLinks

/// Feeds arbitrary bytes to the route-file parser and, when they build a table, lints it and
/// routes every example (the first of `matches` must be `match`'s answer). Anything but a diagnostic is a bug.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    var builder = RouteTableBuilder()
    builder.addFile(text: text, file: "fuzz.routes")
    guard let table = try? builder.build() else { return 0 }
    _ = table.lint()
    for route in table.routes {
        for example in route.definition.examples {
            _ = table.explain(example)
            let first = table.firstMatch(example)
            if let name = first?.routeName {
                precondition(table.route(named: name) != nil, "matched a route the table does not have")
            }
            if case let .success(all) = table.matches(example) {
                precondition(all.first == first, "the first of matches is not match: \(example)")
            } else {
                precondition(first == nil, "matches found nothing where match did: \(example)")
            }
        }
    }
    return 0
}
