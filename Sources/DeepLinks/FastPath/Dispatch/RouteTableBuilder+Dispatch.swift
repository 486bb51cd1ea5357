/// How the builder turns routes into dispatch keys, segment-count buckets and candidate sets.
extension RouteTableBuilder {
    /// What finds a subject's candidate set.
    struct Dispatch {
        let candidateSets: [CandidateSet]
        /// Maps a subject's start to a key, whose buckets `segmentCounts` holds.
        let keys: DispatchIndex
        let segmentCounts: SegmentCountIndex
    }

    /// Groups routes by dispatch key, splits each key's routes by segment count, and compiles the
    /// candidate sets.
    func makeDispatch(_ routes: [Route]) throws(PCRE2Error) -> Dispatch {
        // Routes registered directly under each key, by level.
        var direct: [[UInt8]: [Int]] = [:]
        var parentKeys: [[UInt8]: [[UInt8]]] = [:]
        var unkeyed: [Int] = []
        for route in routes {
            let keys = route.dispatchKey.keys
            guard let own = keys.last else { unkeyed.append(route.order); continue }
            direct[own, default: []].append(route.order)
            for (level, key) in keys.enumerated() where parentKeys[key] == nil {
                parentKeys[key] = Array(keys[..<level])
            }
        }
        let slashCounts = routes.map { PatternScanner.slashCount($0.definition.pattern) }
        var sets: [CandidateSet] = []
        var keyEntries: [(key: [UInt8], candidateSet: Int)] = []
        var buckets: [(buckets: [(slashes: Int, candidateSet: Int)], otherCounts: Int)] = []
        for key in parentKeys.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
            // A subject with this key can match routes under the key itself and under its shorter keys.
            var orders = direct[key] ?? []
            for parent in parentKeys[key]! { orders += direct[parent] ?? [] }
            orders += unkeyed
            // Routes of shorter keys that no subject of this key can start like are left out: what the
            // sieve would do for every such subject (`myapp://res0/(?<id>[0-9]+)` under `myapp://res0/new`).
            if !parentKeys[key]!.isEmpty { orders.removeAll { !routes[$0].start.canStart(afterKey: key) } }
            orders.sort()
            let label = DispatchKey(level: DispatchKey.Level(rawValue: parentKeys[key]!.count + 1)!,
                                    keys: parentKeys[key]! + [key]).description
            keyEntries.append((key, buckets.count))
            buckets.append(try bucketed(orders, label: label, key: key, slashCounts: slashCounts, routes: routes, into: &sets))
        }
        let fallback = buckets.count
        buckets.append(try bucketed(unkeyed, label: "*", key: [], slashCounts: slashCounts, routes: routes, into: &sets))
        let segmentCounts = SegmentCountIndex(keys: buckets, loneRoutes: sets.map(\.loneRoute))
        return Dispatch(candidateSets: sets, keys: DispatchIndex(keys: keyEntries, fallback: fallback, segmentCounts: segmentCounts),
                        segmentCounts: segmentCounts)
    }

    /// Compiles one candidate set per number of `/` some route of `orders` fixes, each with the
    /// routes of that count and those of no fixed count, and one with the latter alone for other counts.
    /// Orders stay ascending in every set, so priority and file order are kept.
    private func bucketed(_ orders: [Int], label: String, key: [UInt8], slashCounts: [Int?], routes: [Route],
                          into sets: inout [CandidateSet]) throws(PCRE2Error) -> (buckets: [(slashes: Int, candidateSet: Int)], otherCounts: Int) {
        let counts = Set(orders.compactMap { slashCounts[$0] }).sorted()
        var buckets: [(slashes: Int, candidateSet: Int)] = []
        for count in counts {
            let members = orders.filter { slashCounts[$0] == nil || slashCounts[$0] == count }
            buckets.append((count, sets.count))
            sets.append(try CandidateSet(label: "\(label) with \(count) `/`", key: key, routes: members, table: routes,
                                         maxPerChunk: maxRoutesPerChunk))
        }
        let others = orders.filter { slashCounts[$0] == nil }
        let otherLabel = counts.isEmpty ? label : "\(label) with another number of `/`"
        sets.append(try CandidateSet(label: otherLabel, key: key, routes: others, table: routes, maxPerChunk: maxRoutesPerChunk))
        return (buckets, sets.count - 1)
    }
}
