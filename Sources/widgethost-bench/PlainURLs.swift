/// URLs as their UTF-8 in one buffer, each read as a pointer and a length: input for
/// `RouteTable.withMatch(utf8:)` that the loop reads without copying anything, as `BareFloor`
/// reads its subjects, so the two are timed alike.
final class PlainURLs {
    private let bytes: UnsafeMutableBufferPointer<UInt8>
    private let spans: UnsafeMutableBufferPointer<(start: Int, count: Int)>

    /// The number of URLs.
    var count: Int { spans.count }

    init(_ urls: [String]) {
        let all = urls.flatMap(\.utf8)
        bytes = .allocate(capacity: max(all.count, 1))
        _ = bytes.initialize(from: all)
        spans = .allocate(capacity: urls.count)
        var start = 0
        for (index, url) in urls.enumerated() {
            spans.initializeElement(at: index, to: (start, url.utf8.count))
            start += url.utf8.count
        }
    }

    deinit {
        bytes.deallocate()
        spans.deallocate()
    }

    /// The UTF-8 of URL `index`.
    @inline(__always)
    subscript(index: Int) -> UnsafeBufferPointer<UInt8> {
        let span = spans[index]
        return UnsafeBufferPointer(start: bytes.baseAddress! + span.start, count: span.count)
    }
}
