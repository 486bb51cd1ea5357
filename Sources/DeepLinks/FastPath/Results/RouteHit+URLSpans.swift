private let percent = UInt8(ascii: "%")

extension RouteHit {
    /// This hit, for a URL that needed canonicalizing, with its groups' spans moved from the subject
    /// onto the URL's own bytes, so that reading a parameter decodes those bytes instead of deriving
    /// the subject again (a second canonicalization, ~600 instructions a read); the hit unchanged
    /// when they cannot move: a group outside the path (scheme and host are lower-cased and lose a
    /// default port, so their bytes differ), a span edge inside an escape the subject keeps
    /// (`%2F`, `%25`), or spans that were not kept.
    ///
    /// In the path, each subject byte is the URL's byte, or the URL's `%XX` decoded (one byte for
    /// three), or, for `/` and `%`, the URL's `%XX` kept (three for three): decoding the URL's
    /// bytes of a moved span gives what decoding the subject's gives.
    /// - Parameters:
    ///   - subject: The canonical subject the route matched.
    ///   - layout: Its layout.
    ///   - url: The URL's bytes.
    func movedOntoURL(subject: UnsafeBufferPointer<UInt8>, layout: CanonicalLayout, url: UnsafeBufferPointer<UInt8>) -> RouteHit {
        guard !layout.isVerbatim, captures.isComplete, let base = url.baseAddress else { return self }
        var walk = SubjectPathWalk(subject: subject, url: base, subjectPathStart: layout.pathStart, urlPath: layout.urlPath)
        guard let moved = captures.mapped({ walk.urlOffset(of: $0) }) else { return self }
        return RouteHit(route: route, url: MatchedURL(spansOnURL: layout.urlPath.upperBound, of: layout), captures: moved)
    }
}

/// Walks a canonical subject's path and the URL's path side by side, to find the URL offset of a
/// subject offset (see `RouteHit.movedOntoURL`): from escape to escape, as the bytes between two
/// escapes are the same in both.
private struct SubjectPathWalk {
    let subject: UnsafeBufferPointer<UInt8>
    let url: UnsafePointer<UInt8>
    /// Where the URL's path ends (before its trailing slashes, `?`, `#`).
    let pathEnd: Int
    let subjectPathStart: Int
    let urlPathStart: Int
    /// Where the walk is: a subject offset, the URL offset of the same byte, and the URL's next
    /// `%` from there (`pathEnd` when there is none).
    private var position: (subject: Int, url: Int, escape: Int)

    init(subject: UnsafeBufferPointer<UInt8>, url: UnsafePointer<UInt8>, subjectPathStart: Int, urlPath: Range<Int>) {
        self.subject = subject
        self.url = url
        pathEnd = urlPath.upperBound
        self.subjectPathStart = subjectPathStart
        urlPathStart = urlPath.lowerBound
        position = (subjectPathStart, urlPathStart, WordScan.firstIndex(of: percent, in: url, from: urlPathStart, to: pathEnd))
    }

    /// The URL offset of subject offset `target`; nil when `target` is before the path, after the
    /// subject, or inside an escape the subject keeps.
    @inline(__always)
    mutating func urlOffset(of target: Int) -> Int? {
        guard target >= subjectPathStart, target <= subject.count else { return nil }
        if target < position.subject {
            position = (subjectPathStart, urlPathStart, WordScan.firstIndex(of: percent, in: url, from: urlPathStart, to: pathEnd))
        }
        var (at, from, escape) = position
        // Up to the URL's next `%`, the bytes are the subject's, one for one.
        while at + (escape - from) < target {
            at += escape - from
            from = escape
            guard from + 2 < pathEnd, at < subject.count else { return nil }
            if subject[at] == percent {
                // An escape the subject keeps (`%2F`, `%25`): three bytes for three, not to be cut.
                guard at + 3 <= target else { return nil }
                at += 3
            } else {
                at += 1
            }
            from += 3
            escape = WordScan.firstIndex(of: percent, in: url, from: from, to: pathEnd)
        }
        from += target - at
        position = (target, from, escape)
        return from
    }
}
