import DeepLinks
import Foundation

/// `widgethost-bench routes-profile SIZE ROUNDS MODE`: a fixed amount of routing work with no
/// timing loop, for counting instructions with `valgrind --tool=callgrind`.
///
/// Builds the generated table of SIZE routes and runs ROUNDS passes over its URLs. Two runs with
/// different ROUNDS differ only in the passes, so (Ir₂ − Ir₁) / ((ROUNDS₂ − ROUNDS₁) × URLs) is
/// the instruction count per URL, free of table building and start-up (see Benchmarks/README.md).
///
/// MODE: `match` (the whole mix, result discarded), `read` (the whole mix, reading the route name
/// and first parameter of each match), `read-all` (matching URLs: name, target, every parameter and
/// query item), `matching` (matching URLs, name and first parameter), `matching-only` (matching
/// URLs, result discarded), `matching-upper` and `matching-escaped` (matching URLs that need
/// canonicalizing: the scheme in capitals, or the first digit that starts a path segment escaped; name and first
/// parameter), `floor` (matching URLs: the
/// winning route's pattern alone on the canonical subject), `floor-bare` (the same, each subject
/// and pattern read from a buffer of plain values: no copy of the subject retained, see
/// `BareFloor`), `lent-utf8` and `lent-utf8-only` (the twins of `lent` and `lent-only` through
/// `withMatch(utf8:)`, each URL's bytes read as `BareFloor` reads its subjects), `url-copy` and `url-no-copy` (what the loop's copy of each URL costs (a): see the
/// case). A mode with `-sorted` appended (`lent-only-sorted`, `floor-sorted`) takes the matching
/// URLs in route order.
enum RouteProfile {
    /// A function of a URL that the optimizer cannot see into (not optimized, so what it returns is
    /// unknown to its callers), as it cannot see into `RouteTable.match` in another module.
    @_optimize(none)
    static func opaqueTaker() -> (String) -> Int { { $0.utf8.count } }

    static func run(_ arguments: [String]) {
        guard arguments.count == 3, let size = Int(arguments[0]), let rounds = Int(arguments[1]) else {
            FileHandle.standardError.write(Data("usage: widgethost-bench routes-profile SIZE ROUNDS MODE\n".utf8))
            exit(64)
        }
        let generated = RouteTableGenerator(routeCount: size, urlCount: RouteBenchmark.urlCount)
        var builder = RouteTableBuilder()
        builder.add(generated.routes.map(\.definition))
        let table = try! builder.build()
        let urls = generated.urls.map(\.url)
        // MODE-sorted: the matching URLs in route order, where each branch on a URL's route and
        // shape goes the same way as for the URL before (what mispredictions cost is the difference).
        let mode = arguments[2].hasSuffix("-sorted") ? String(arguments[2].dropLast("-sorted".count)) : arguments[2]
        let unsorted = generated.urls.filter { $0.expectedRoute != nil }
        let matching = mode == arguments[2] ? unsorted : unsorted.sorted { $0.expectedRoute! < $1.expectedRoute! }
        let matchingURLs = matching.map(\.url)
        var sink = 0
        // With ROUTES_PROFILE_TIME set, each round is timed (thread CPU time) and the fastest is
        // printed: for comparing two builds run in turns, where the fastest of many short rounds
        // is steadier than a whole run on a shared machine.
        var fastest = UInt64.max
        let timed = ProcessInfo.processInfo.environment["ROUTES_PROFILE_TIME"] != nil
        func repeatRounds(_ count: Int, _ round: () -> Void) {
            for _ in 0..<count {
                let start = timed ? RouteBenchmark.threadCPUNanoseconds() : 0
                round()
                if timed { fastest = min(fastest, RouteBenchmark.threadCPUNanoseconds() - start) }
            }
        }
        switch mode {
        case "match":
            repeatRounds(rounds) { for url in urls { if case .success = table.match(url) { sink &+= 1 } } }
        case "read":
            repeatRounds(rounds) { for url in urls { sink &+= RouteBenchmark.readNameAndFirstParameter(table.match(url)) } }
        case "matching-only":
            repeatRounds(rounds) { for url in matchingURLs { if case .success = table.match(url) { sink &+= 1 } } }
        case "matching":
            repeatRounds(rounds) { for url in matchingURLs { sink &+= RouteBenchmark.readNameAndFirstParameter(table.match(url)) } }
        case "lent":
            repeatRounds(rounds) { for url in matchingURLs { sink &+= RouteBenchmark.readNameAndFirstParameter(lentFrom: table, url) } }
        case "lent-only":
            repeatRounds(rounds) { for url in matchingURLs { if case .success = table.withMatch(url, { _ in 1 }) { sink &+= 1 } } }
        case "lent-utf8", "lent-utf8-only":
            // Through `withMatch(utf8:)`, each URL's bytes read from a buffer of plain values (`PlainURLs`).
            let plain = PlainURLs(matchingURLs)
            if mode == "lent-utf8" {
                repeatRounds(rounds) { for index in 0..<plain.count { sink &+= RouteBenchmark.readNameAndFirstParameter(lentFrom: table, utf8: plain[index]) } }
            } else {
                repeatRounds(rounds) { for index in 0..<plain.count { if case .success = table.withMatch(utf8: plain[index], { _ in 1 }) { sink &+= 1 } } }
            }
        case "matching-upper", "matching-escaped":
            // URLs that need canonicalizing: the scheme in capitals, or the first digit of the path escaped.
            let changed = matchingURLs.map { RouteTableGenerator.needingCanonicalization($0, capitals: mode == "matching-upper") }
            for (url, original) in zip(changed, matchingURLs) {
                precondition(table.firstMatch(url)?.routeName == table.firstMatch(original)?.routeName, "\(url) routes elsewhere")
            }
            repeatRounds(rounds) { for url in changed { sink &+= RouteBenchmark.readNameAndFirstParameter(table.match(url)) } }
        case "read-all":
            repeatRounds(rounds) { for url in matchingURLs { sink &+= RouteBenchmark.readEverything(table.match(url)) } }
        case "floor":
            let (subjects, winners) = RouteTableGenerator.floorInputs(matching, patterns: generated.routes.map { JITPattern($0.pattern) })
            repeatRounds(rounds) { for index in subjects.indices where winners[index].matches(subjects[index]) { sink &+= 1 } }
        case "url-copy", "url-no-copy":
            // What the loop's copy of each URL costs (a): the matching URLs passed, from their array,
            // to a function the optimizer cannot see into, as `match` is (Swift retains and releases
            // each around the call); or one of them, held in a local for the whole loop, in their place.
            let taker = opaqueTaker()
            let held = matchingURLs[0]
            if mode == "url-copy" {
                repeatRounds(rounds) { for url in matchingURLs { sink &+= taker(url) } }
            } else {
                repeatRounds(rounds) { for _ in matchingURLs { sink &+= taker(held) } }
            }
        case "floor-bare":
            let (subjects, winners) = RouteTableGenerator.floorInputs(matching, patterns: generated.routes.map { JITPattern($0.pattern) })
            let floor = BareFloor(subjects: subjects, winners: winners)
            repeatRounds(rounds) { for index in 0..<floor.count where floor.matches(index) { sink &+= 1 } }
        default:
            FileHandle.standardError.write(Data("unknown mode \(arguments[2])\n".utf8))
            exit(64)
        }
        let routed = ["match", "read"].contains(mode) ? urls.count : matchingURLs.count
        if timed { print(String(format: "fastest round %.1f ns per URL", Double(fastest) / Double(routed))) }
        print("size \(size) rounds \(rounds) mode \(arguments[2]) urls \(routed) sink \(sink)")
    }
}
