import CPCRE2
import DeepLinks
import Foundation

/// `widgethost-bench routes [--export DIR]`: times WidgetHost's router against its floor and
/// against sequential matching, on generated tables of 10 to 10,000 routes.
///
/// Columns (ns per URL): (a) `RouteTable.match` on the whole URL mix and on the matching URLs
/// alone, each time reading the route name and the first path parameter of the result (so lazy
/// work is not skipped), and on the matching URLs reading everything (name, target, every path
/// parameter and query item); (b) the floor: one `pcre2_jit_match` of the winning route's own pattern on the canonical
/// subject, for the matching URLs; (c) a loop over every route's JIT-compiled pattern in order;
/// (d) the same loop with NSRegularExpression, as common iOS routers do (fewer URLs sampled).
/// (a) is also timed on the matching URLs with the result not read (the floor reads nothing
/// either: both end with the groups' offsets in hand). Each body takes its input from an array,
/// and Swift copies it across the call it cannot see into (a retain and a release: (a) of the URL,
/// (b) of the subject's bytes); "(b) bare" is the floor without that copy (`BareFloor`), which (a)
/// cannot shed the same way (a `String` read from memory is copied across `match`); "(a) lent,
/// UTF-8" takes each URL as the bare floor takes its subject, as bytes read from a buffer of plain
/// values (`PlainURLs`), through `RouteTable.withMatch(utf8:)`.
/// Times are thread CPU time. (a) on the matching URLs (read, read all, not read, lent, lent not
/// read) and (b) are timed in turns of about a millisecond each (`timeSideBySide`): each of those
/// columns is the fastest sample, the one other processes disturbed least, and the x/(b) columns
/// divide those fastest samples. The two reading columns also have the median, over the turns, of
/// the ratio of the two times taken in the same turn, with its middle half: what the ratio is
/// under the load the machine had during the run, which the neighbours' load on a shared machine
/// moves by 10% and more between runs (the fastest samples, by a few percent). The other columns
/// use `time` (the fastest millisecond sample, not in turns).
/// The last two columns time (a), reading, on the matching URLs changed so that they need
/// canonicalizing: the scheme in capitals (`MYAPP://`), or one digit of the path escaped (`%31`).
/// `--export DIR` also writes each table and URL mix for Benchmarks/peers/peer_routers.py.
enum RouteBenchmark {
    static let sizes = ProcessInfo.processInfo.environment["ROUTES_SIZES"].map { $0.split(separator: ",").map { Int($0)! } } ?? [10, 100, 1_000, 10_000]
    static let urlCount = 2_000

    static func run(_ arguments: [String]) {
        var exportDirectory: String?
        if let index = arguments.firstIndex(of: "--export"), index + 1 < arguments.count { exportDirectory = arguments[index + 1] }
        print("routes: ns per URL (lower is better); matches/s = 1e9 / ns")
        print("| routes | (a) WidgetHost, mix | (a) matching URLs | (a) matching, read all | (a) matching, not read | (a) lent | (a) lent, not read | (b) floor: winner's pattern alone | (b) bare: no copy of the subject | (a)/(b) | (a)/(b) median (middle half) | (a) read all/(b) | (a) not read/(b) | (a) lent/(b) | (a) lent/(b) median (middle half) | (a) lent, not read/(b) | (a)/(b) bare | (a) lent, not read/(b) bare | (a) lent, UTF-8 | (a) lent, UTF-8, not read | (a) lent, UTF-8/(b) bare | (a) lent, UTF-8, not read/(b) bare | (c) sequential PCRE2-JIT | (d) sequential NSRegularExpression | (d)/(a) | build ms | (a) capitals in scheme | (a) one escape |")
        print("|" + String(repeating: "---:|", count: 28))
        var results: [[String: Double]] = []
        for size in sizes {
            let generated = RouteTableGenerator(routeCount: size, urlCount: urlCount)
            if let exportDirectory { export(generated, size: size, to: exportDirectory) }
            let row = measure(generated, size: size)
            results.append(row)
            let floor = row["floor"]!
            let bare = row["bareFloor"]!
            print(String(format: "| %d | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.0f | %.2f | %.2f (%.2f–%.2f) | %.2f | %.2f | %.2f | %.2f (%.2f–%.2f) | %.2f | %.2f | %.2f | %.0f | %.0f | %.2f | %.2f | %.0f | %.0f | %.0f× | %.0f | %.0f | %.0f |",
                         size, row["mix"]!, row["matching"]!, row["readAll"]!, row["notRead"]!, row["lent"]!, row["lentNotRead"]!, floor, bare,
                         row["matching"]! / floor, row["ratio"]!, row["ratioLow"]!, row["ratioHigh"]!,
                         row["readAll"]! / floor, row["notRead"]! / floor,
                         row["lent"]! / floor, row["lentRatio"]!, row["lentRatioLow"]!, row["lentRatioHigh"]!,
                         row["lentNotRead"]! / floor, row["matching"]! / bare, row["lentNotRead"]! / bare,
                         row["lentUTF8"]!, row["lentUTF8NotRead"]!, row["lentUTF8"]! / bare, row["lentUTF8NotRead"]! / bare,
                         row["sequentialJIT"]!, row["nsregex"]!, row["nsregex"]! / row["mix"]!, row["buildMs"]!,
                         row["capitals"]!, row["escaped"]!))
        }
        if let exportDirectory {
            let data = try! JSONSerialization.data(withJSONObject: results, options: [.sortedKeys, .prettyPrinted])
            try! data.write(to: URL(fileURLWithPath: exportDirectory).appendingPathComponent("widgethost-results.json"))
        }
    }

    static func measure(_ generated: RouteTableGenerator, size: Int) -> [String: Double] {
        let start = DispatchTime.now().uptimeNanoseconds
        var builder = RouteTableBuilder()
        builder.add(generated.routes.map(\.definition))
        let table = try! builder.build()
        let buildMs = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6

        let urls = generated.urls.map(\.url)
        // Sanity: the router agrees with the generator on every URL.
        for url in generated.urls {
            precondition(table.firstMatch(url.url)?.routeName == url.expectedRoute, "unexpected result for \(url.url)")
        }
        let matching = generated.urls.filter { $0.expectedRoute != nil }
        // Where the timed closures add what they read. Not a captured `var`: the closures escape
        // (`timeSideBySide` keeps them in an array), so such a `var` lives in a box, and every
        // `+=` to it was a call to check exclusive access, harness work that the floor, which
        // adds nothing, did not do.
        let sink = UnsafeMutablePointer<Int>.allocate(capacity: 1)
        sink.initialize(to: 0)
        defer { sink.deallocate() }
        let mix = time(urls.count) { index in sink.pointee &+= readNameAndFirstParameter(table.match(urls[index])) }
        let matchingURLs = matching.map(\.url)

        let canonicalizer = URLCanonicalizer()
        let canonicalizeOnly = time(urls.count) { index in _ = try? canonicalizer.canonicalize(urls[index]) }
        let canonicals = urls.map { try! canonicalizer.canonicalize($0) }
        let matchCanonical = time(urls.count) { index in _ = table.match(canonicals[index]) }
        if ProcessInfo.processInfo.environment["ROUTES_BREAKDOWN"] != nil {
            print("  canonicalize \(Int(canonicalizeOnly)) ns, match(canonical) \(Int(matchCanonical)) ns")
        }
        let patterns = generated.routes.map { JITPattern($0.pattern) }
        let subjects = urls.map { Array(try! canonicalizer.canonicalize($0).subject.utf8) }
        let (matchingSubjects, winners) = RouteTableGenerator.floorInputs(matching, patterns: patterns)
        let bareFloor = BareFloor(subjects: matchingSubjects, winners: winners)
        let plainURLs = PlainURLs(matchingURLs)
        // (a) on the matching URLs and (b) are timed in turns, repetition by repetition, so that each
        // ratio compares two times taken under the same load.
        let side = timeSideBySide(matchingURLs.count, [
            { index in sink.pointee &+= readNameAndFirstParameter(table.match(matchingURLs[index])) },
            { index in sink.pointee &+= readEverything(table.match(matchingURLs[index])) },
            { index in if case .success = table.match(matchingURLs[index]) { sink.pointee &+= 1 } },
            { index in sink.pointee &+= readNameAndFirstParameter(lentFrom: table, matchingURLs[index]) },
            { index in if case .success = table.withMatch(matchingURLs[index], { _ in 1 }) { sink.pointee &+= 1 } },
            { index in _ = bareFloor.matches(index) },
            { index in sink.pointee &+= readNameAndFirstParameter(lentFrom: table, utf8: plainURLs[index]) },
            { index in if case .success = table.withMatch(utf8: plainURLs[index], { _ in 1 }) { sink.pointee &+= 1 } },
            { index in _ = winners[index].matches(matchingSubjects[index]) },
        ])
        let (matchingTime, readAll, notRead, lent, lentNotRead, bare, floor) = (side.best[0], side.best[1], side.best[2], side.best[3],
                                                                                side.best[4], side.best[5], side.best[8])
        let (lentUTF8, lentUTF8NotRead) = (side.best[6], side.best[7])

        // Matching URLs that need canonicalizing (capitals in the scheme; one escaped digit), read the same way.
        let capitalized = matchingURLs.map { RouteTableGenerator.needingCanonicalization($0, capitals: true) }
        let escaped = matchingURLs.map { RouteTableGenerator.needingCanonicalization($0, capitals: false) }
        for (changed, original) in zip(capitalized + escaped, matchingURLs + matchingURLs) {
            precondition(table.firstMatch(changed)?.routeName == table.firstMatch(original)?.routeName, "\(changed) routes elsewhere")
        }
        let capitalsTime = time(capitalized.count) { index in sink.pointee &+= readNameAndFirstParameter(table.match(capitalized[index])) }
        let escapedTime = time(escaped.count) { index in sink.pointee &+= readNameAndFirstParameter(table.match(escaped[index])) }

        let sequentialCount = min(subjects.count, max(20, 400_000 / size))
        let sequential = time(sequentialCount) { index in
            for pattern in patterns where pattern.matches(subjects[index]) { break }
        }

        let expressions = generated.routes.map { try! NSRegularExpression(pattern: "^(?:\($0.pattern))$") }
        let nsSubjects = urls.map { try! canonicalizer.canonicalize($0).subject }
        let nsCount = min(nsSubjects.count, max(10, 40_000 / size))
        let nsregex = time(nsCount, minimumSeconds: 0.3) { index in
            let subject = nsSubjects[index]
            let range = NSRange(subject.startIndex..., in: subject)
            for expression in expressions where expression.firstMatch(in: subject, options: [], range: range) != nil { break }
        }
        if sink.pointee == 42 { print("") }  // keeps the reads observable
        return ["routes": Double(size), "mix": mix, "matching": matchingTime, "readAll": readAll, "floor": floor, "bareFloor": bare,
                "ratio": side.medianRatios[0], "ratioLow": side.ratioRanges[0].lowerBound, "ratioHigh": side.ratioRanges[0].upperBound,
                "readAllRatio": side.medianRatios[1], "notRead": notRead, "notReadRatio": side.medianRatios[2],
                "lent": lent, "lentRatio": side.medianRatios[3], "lentRatioLow": side.ratioRanges[3].lowerBound,
                "lentRatioHigh": side.ratioRanges[3].upperBound, "lentNotRead": lentNotRead, "lentNotReadRatio": side.medianRatios[4],
                "lentUTF8": lentUTF8, "lentUTF8NotRead": lentUTF8NotRead,
                "sequentialJIT": sequential, "nsregex": nsregex, "buildMs": buildMs, "capitals": capitalsTime, "escaped": escapedTime]
    }

    /// What a caller that only dispatches does with a result: the route name and one parameter
    /// (`id`: the first parameter of every generated route that has parameters).
    @inline(never)
    static func readNameAndFirstParameter(_ result: consuming Result<RouteMatch, RoutingFailure>) -> Int {
        guard case let .success(match) = result else { return 0 }
        var total = match.routeName.utf8.count
        if let value = match.parameter("id") { total &+= value.utf8.count }
        return total
    }

    /// `readNameAndFirstParameter` through `RouteTable.withMatch`, which lends the match.
    @inline(never)
    static func readNameAndFirstParameter(lentFrom table: RouteTable, _ url: String) -> Int {
        let read = table.withMatch(url) { match in
            var total = match.routeName.utf8.count
            if let value = match.parameter("id") { total &+= value.utf8.count }
            return total
        }
        return (try? read.get()) ?? 0
    }

    /// `readNameAndFirstParameter` through `RouteTable.withMatch(utf8:)`.
    @inline(never)
    static func readNameAndFirstParameter(lentFrom table: RouteTable, utf8 url: UnsafeBufferPointer<UInt8>) -> Int {
        let read = table.withMatch(utf8: url) { match in
            var total = match.routeName.utf8.count
            if let value = match.parameter("id") { total &+= value.utf8.count }
            return total
        }
        return (try? read.get()) ?? 0
    }

    /// Everything a result offers a caller: name, target, every path parameter and query item.
    @inline(never)
    static func readEverything(_ result: consuming Result<RouteMatch, RoutingFailure>) -> Int {
        guard case let .success(match) = result else { return 0 }
        var total = match.routeName.utf8.count &+ match.target.utf8.count
        for parameter in match.pathParameters { total &+= parameter.name.utf8.count &+ parameter.value.utf8.count }
        for item in match.queryItems { total &+= item.name.utf8.count &+ item.value.utf8.count }
        return total
    }

    /// Runs `body` over `count` items repeatedly, in samples of about a millisecond of this thread's
    /// CPU time (whole passes over the items; one pass when a pass takes longer), until the samples
    /// have had `minimumSeconds`; returns ns per item of the fastest sample.
    ///
    /// The build machine is shared: CPU time leaves out the time other processes hold the core, and
    /// the fastest sample is the one they disturbed least (caches, the other hyperthread). The
    /// fastest of many samples of a millisecond repeats to a few percent between most runs, where
    /// the fastest of five repetitions of 80 ms moved by 50% and more (the mix at 10 routes, 68–119 ns).
    static func time(_ count: Int, minimumSeconds: Double = 0.4, _ body: (Int) -> Void) -> Double {
        let passes = passesPerSample(count, body)  // also the warm-up
        var best = Double.infinity
        var sampled: UInt64 = 0
        repeat {
            let elapsed = sample(passes, count, body)
            sampled += elapsed
            best = min(best, Double(elapsed) / Double(passes * count))
        } while Double(sampled) < minimumSeconds * 1e9
        return best
    }

    /// How many passes of `body` over `count` items make a sample of about a millisecond (a clock
    /// read is a system call, ~1 µs: a thousandth of a sample), from a first pass and 10 ms of them.
    static func passesPerSample(_ count: Int, _ body: (Int) -> Void) -> Int {
        let nanoseconds = repetition(count, seconds: 0.01, body) * Double(count)
        return max(1, Int((1e6 / nanoseconds).rounded(.up)))
    }

    /// Runs `passes` passes of `body` over `count` items; returns the thread's CPU time they took, in ns.
    static func sample(_ passes: Int, _ count: Int, _ body: (Int) -> Void) -> UInt64 {
        let start = threadCPUNanoseconds()
        for _ in 0..<passes { for index in 0..<count { body(index) } }
        return threadCPUNanoseconds() - start
    }

    /// Runs `body` over `count` items until at least `seconds` of this thread's CPU time have
    /// passed; returns ns per item.
    static func repetition(_ count: Int, seconds: Double, _ body: (Int) -> Void) -> Double {
        var rounds = 0
        let start = threadCPUNanoseconds()
        var elapsed: UInt64 = 0
        repeat {
            for index in 0..<count { body(index) }
            rounds += 1
            elapsed = threadCPUNanoseconds() - start
        } while Double(elapsed) < seconds * 1e9
        return Double(elapsed) / Double(rounds * count)
    }

    /// Times `bodies` (each over the same `count` items) in turns, sample by sample: each turn runs
    /// every body, in a random order, for an untimed sample and then a timed one, each about a
    /// millisecond of this thread's CPU time (whole passes over the items), and turns repeat until
    /// the timed samples have had `minimumSeconds` per body.
    /// - Returns: ns per item of each body's fastest sample, and for each body but the last, the
    ///   median and the middle half (first to third quartile) over the turns of its time divided by
    ///   the last body's time in the same turn: two times measured a few milliseconds apart, under
    ///   the same load. The median is the ratio under that load, and moves with it between runs
    ///   (by 10% at 10 routes on the shared build machine); the fastest samples move less.
    static func timeSideBySide(_ count: Int, minimumSeconds: Double = 0.6, _ bodies: [(Int) -> Void])
        -> (best: [Double], medianRatios: [Double], ratioRanges: [ClosedRange<Double>]) {
        let passes = bodies.map { passesPerSample(count, $0) }  // also the warm-up
        var times = [[Double]](repeating: [], count: bodies.count)
        var sampled: UInt64 = 0
        repeat {
            // In a new order each turn, so that no body always follows the same one or starts at
            // the same point of whatever else the machine does periodically.
            for which in bodies.indices.shuffled() {
                let body = bodies[which]
                // An untimed sample first: the body before this one (at 10,000 routes the floor
                // runs thousands of compiled patterns) has filled the caches with its own code and data.
                _ = sample(passes[which], count, body)
                let elapsed = sample(passes[which], count, body)
                sampled += elapsed
                times[which].append(Double(elapsed) / Double(passes[which] * count))
            }
        } while Double(sampled) < minimumSeconds * Double(bodies.count) * 1e9
        let last = times[bodies.count - 1]
        let ratios = times.dropLast().map { series in zip(series, last).map { $0 / $1 }.sorted() }
        return (times.map { $0.min()! }, ratios.map { $0[$0.count / 2] },
                ratios.map { $0[$0.count / 4]...$0[$0.count * 3 / 4] })
    }

    /// CPU time the calling thread has used, in nanoseconds.
    static func threadCPUNanoseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
        return UInt64(now.tv_sec) * 1_000_000_000 + UInt64(now.tv_nsec)
    }

    static func export(_ generated: RouteTableGenerator, size: Int, to directory: String) {
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        var text = ""
        for route in generated.routes { text += "R\t\(route.name)\t\(route.peerTemplate)\n" }
        for url in generated.urls { text += "U\t\(url.peerPath)\t\(url.expectedRoute ?? "-")\n" }
        try! text.write(toFile: "\(directory)/routes-\(size).tsv", atomically: true, encoding: .utf8)
    }
}

/// One pattern compiled the way DeepLinks compiles a route, matched with its own match data.
final class JITPattern {
    let code: OpaquePointer
    let matchData: OpaquePointer

    init(_ pattern: String) {
        var error: Int32 = 0
        var offset = 0
        let options = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF | PCRE2_NO_AUTO_CAPTURE | PCRE2_ANCHORED | PCRE2_ENDANCHORED
        code = Array(pattern.utf8).withUnsafeBufferPointer { pcre2_compile_8($0.baseAddress, $0.count, options, &error, &offset, nil) }!
        precondition(pcre2_jit_compile_8(code, PCRE2_JIT_COMPLETE) == 0)
        matchData = pcre2_match_data_create_from_pattern_8(code, nil)
    }

    deinit {
        pcre2_match_data_free_8(matchData)
        pcre2_code_free_8(code)
    }

    @inline(__always)
    func matches(_ subject: [UInt8]) -> Bool {
        subject.withUnsafeBufferPointer { pcre2_jit_match_8(code, $0.baseAddress, $0.count, 0, 0, matchData, nil) > 0 }
    }
}
