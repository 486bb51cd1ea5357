import CPCRE2

/// The floor without the harness's copy of its input: each URL's canonical subject, its winning
/// pattern and that pattern's match data, read from a buffer of plain values, so that a pass is
/// `pcre2_jit_match` calls and nothing else.
///
/// The floor proper (`JITPattern.matches` on a `[UInt8]` taken from an array) retains and
/// releases the subject's array around each match, as (a) retains and releases the URL it takes
/// from its array around each `RouteTable.match`: Swift copies a value read from memory across a
/// call it cannot see into. Timing this beside the floor says what that copy costs.
final class BareFloor {
    private struct Item {
        let subject: UnsafeMutablePointer<UInt8>
        let count: Int
        let code: OpaquePointer
        let matchData: OpaquePointer
    }

    private let items: UnsafeMutableBufferPointer<Item>
    /// Keeps the compiled patterns (and their match data) alive.
    private let winners: [JITPattern]

    /// The number of subjects.
    var count: Int { items.count }

    /// `subjects[i]` is matched against `winners[i]`.
    init(subjects: [[UInt8]], winners: [JITPattern]) {
        self.winners = winners
        items = .allocate(capacity: subjects.count)
        for (index, (subject, winner)) in zip(subjects, winners).enumerated() {
            let copy = UnsafeMutablePointer<UInt8>.allocate(capacity: max(subject.count, 1))
            copy.initialize(from: subject, count: subject.count)
            items.initializeElement(at: index, to: Item(subject: copy, count: subject.count, code: winner.code, matchData: winner.matchData))
        }
    }

    deinit {
        for item in items { item.subject.deallocate() }
        items.deallocate()
    }

    /// Whether subject `index` matches its winner.
    @inline(__always)
    func matches(_ index: Int) -> Bool {
        let item = items[index]
        return pcre2_jit_match_8(item.code, item.subject, item.count, 0, 0, item.matchData, nil) > 0
    }
}
