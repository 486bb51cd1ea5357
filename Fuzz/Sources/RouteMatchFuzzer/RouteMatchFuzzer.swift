import DeepLinks
import Foundation

/// The default table from the repository's Routes/ directory.
private let table: RouteTable = {
    let routes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Routes").path
    return try! RouteTable.load(directory: routes)
}()

/// Routes arbitrary URLs through the default table and checks invariants: matching never crashes;
/// a matched URL's canonical form (when within the URL limit) matches the same route with the same parameters; explain agrees
/// with match; a lent match (`withMatch`) reads exactly as the owned one, and fails the same way; the first of
/// `matches` is `match`'s answer, and the others are the routes explain says it shadows; the input's raw bytes
/// (`withMatch(utf8:)`) route as its string does when they are UTF-8 before any `#`, and fail as an invalid URL
/// when they are not.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteMatch(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let url = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let result = table.match(url)
    precondition(table.explain(url).winner == (try? result.get())?.routeName, "explain disagrees with match for \(url)")
    let lent = table.withMatch(url) { view in (view.routeName, view.pathParameters, view.queryItems, view.owned()) }
    switch (result, lent) {
    case let (.success(match), .success((name, parameters, items, kept))):
        precondition(name == match.routeName && parameters == match.pathParameters && items == match.queryItems && kept == match,
                     "a lent match reads differently: \(url)")
    case let (.failure(owned), .failure(lentFailure)):
        precondition(owned == lentFailure, "lent and owned failures differ: \(url)")
    default:
        preconditionFailure("lent and owned routing disagree: \(url)")
    }
    let all = table.matches(url)
    switch (all, result) {
    case let (.success(all), .success(match)):
        precondition(all.first == match, "the first of matches is not match: \(url)")
        let shadowed = table.explain(url).candidates.compactMap { candidate -> String? in
            if case .shadowed = candidate.outcome { return candidate.routeName }
            return nil
        }
        precondition(all.dropFirst().map(\.routeName) == shadowed, "matches and explain disagree on shadowed routes: \(url)")
    case let (.failure(allFailure), .failure(failure)):
        precondition(allFailure == failure, "matches fails differently from match: \(url)")
    default:
        preconditionFailure("matches and match disagree: \(url)")
    }
    checkBytes(UnsafeBufferPointer(start: data, count: size), result: result)
    // Re-encoding can make the canonical form longer than the URL limit (see FuzzRegressionTests).
    if case let .success(match) = result, match.canonicalURL.string.utf8.count <= table.canonicalizer.maxURLLength {
        let again = table.firstMatch(match.canonicalURL.string)
        precondition(again?.routeName == match.routeName, "canonical form routes elsewhere: \(url)")
        precondition(again?.parameters == match.parameters, "canonical form changes parameters: \(url)")
    }
    return 0
}

/// The raw bytes through `withMatch(utf8:)`, against `result`, the input routed as a (repaired) `String`.
private func checkBytes(_ bytes: UnsafeBufferPointer<UInt8>, result: Result<RouteMatch, RoutingFailure>) {
    let lent = table.withMatch(utf8: bytes) { view in (view.routeName, view.pathParameters, view.queryItems) }
    let beforeFragment = bytes.firstIndex(of: UInt8(ascii: "#")).map { UnsafeBufferPointer(rebasing: bytes[..<$0]) } ?? bytes
    guard let prefix = String(validating: beforeFragment, as: UTF8.self) else {
        guard case .failure(.invalidURL) = lent else { preconditionFailure("bytes that are not UTF-8 routed: \(Array(bytes))") }
        return
    }
    // Bytes that are UTF-8 throughout are their string; otherwise only the ignored fragment is not, and the URL
    // routes as it would with any other fragment of the same length (repairing it would change the length).
    let expected: Result<RouteMatch, RoutingFailure>
    if String(validating: bytes, as: UTF8.self) != nil {
        expected = result
    } else {
        expected = table.match(prefix + "#" + String(repeating: "x", count: bytes.count - beforeFragment.count - 1))
    }
    switch (expected, lent) {
    case let (.success(match), .success((name, parameters, items))):
        precondition(name == match.routeName && parameters == match.pathParameters && items == match.queryItems,
                     "bytes read differently from their string: \(Array(bytes))")
    case let (.failure(owned), .failure(fromBytes)):
        precondition(owned == fromBytes, "bytes fail differently from their string: \(Array(bytes))")
    default:
        preconditionFailure("bytes and their string route differently: \(Array(bytes))")
    }
}
