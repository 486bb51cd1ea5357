import DeepLinks

extension RouteTableGenerator {
    /// What the floor runs for `matching` URLs: each one's canonical subject, and the pattern of the
    /// route it is expected to match among `patterns` (the generated routes', in order).
    static func floorInputs(_ matching: [GeneratedURL], patterns: [JITPattern]) -> (subjects: [[UInt8]], winners: [JITPattern]) {
        let canonicalizer = URLCanonicalizer()
        return (matching.map { Array(try! canonicalizer.canonicalize($0.url).subject.utf8) },
                matching.map { patterns[Int($0.expectedRoute!.dropFirst())!] })
    }
}
