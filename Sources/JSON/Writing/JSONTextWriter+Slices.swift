extension JSONTextWriter {
    /// Writes a value already encoded as JSON text by a writer with the same rules, held in part of a larger
    /// buffer (the entries of a timeline share one), without copying it out first.
    package mutating func encoded(slice json: ArraySlice<UInt8>) {
        separate()
        bytes.append(contentsOf: json)
    }
}
