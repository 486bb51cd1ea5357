extension UnsafeMutableBufferPointer {
    /// A newly allocated buffer holding `elements`, exactly `elements.count` of them (its memory has
    /// room for at least one, so that its base address is never nil). The caller owns it and
    /// frees it with `deallocate()`.
    ///
    /// The flat tables matching reads (`MatchPlan`, `DispatchIndex`, `QueryRulePlan`) are built
    /// as arrays and copied into such buffers, so that a lookup follows no reference and counts none.
    static func copying(_ elements: [Element]) -> UnsafeMutableBufferPointer<Element> {
        let buffer = UnsafeMutableBufferPointer<Element>.allocate(capacity: Swift.max(elements.count, 1))
        _ = buffer.initialize(from: elements)
        return UnsafeMutableBufferPointer(rebasing: buffer[0..<elements.count])
    }
}
