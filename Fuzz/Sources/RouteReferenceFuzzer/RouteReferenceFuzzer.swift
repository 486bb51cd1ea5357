import DeepLinks
import Foundation

/// The default table from the repository's Routes/ directory.
private let table: RouteTable = {
    let routes = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Routes").path
    return try! RouteTable.load(directory: routes)
}()

/// Taps of every kind the default routes tell apart (sources and families).
private let contexts = [TapContext(), TapContext(source: .link), TapContext(source: .widgetURL, family: .systemSmall),
                        TapContext(family: .liveActivity)]

/// Routes arbitrary bytes through the default table's fast path and through `referenceMatch`, its
/// specification, from every kind of tap: `match` and `withMatch` on the bytes as a (repaired)
/// `String` must answer as `referenceMatch` on that string, and `withMatch(utf8:)` on the raw bytes as
/// `referenceMatch(utf8:)` on them. Where either side reaches PCRE2's match limit the two may
/// differ by design (an alternation backtracks differently from one pattern), and are not compared.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRouteReference(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    let url = String(decoding: bytes, as: UTF8.self)
    for context in contexts {
        let reference = table.referenceMatch(url, context: context)
        expectSame(RoutingAnswer(table.match(url, context: context)), reference, way: "match", input: bytes, context: context)
        expectSame(RoutingAnswer(table.withMatch(url, context: context) { RoutingAnswer($0) }), reference, way: "withMatch", input: bytes,
                   context: context)
        expectSame(RoutingAnswer(table.withMatch(utf8: bytes, context: context) { RoutingAnswer($0) }),
                   table.referenceMatch(utf8: bytes, context: context), way: "withMatch(utf8:)", input: bytes, context: context)
    }
    return 0
}

/// Stops the run (so libFuzzer keeps the input) when the fast path's answer is not the reference's.
private func expectSame(_ fast: RoutingAnswer, _ reference: RoutingAnswer, way: String, input: UnsafeBufferPointer<UInt8>,
                        context: TapContext) {
    if fast == reference || reachesLimit(fast) || reachesLimit(reference) { return }
    preconditionFailure("\(way) answers \(fast), referenceMatch \(reference), from \(context), for \(Array(input))")
}

private func reachesLimit(_ answer: RoutingAnswer) -> Bool {
    answer == .matchFailed(.matchLimit) || answer == .matchFailed(.jitStackLimit)
}
