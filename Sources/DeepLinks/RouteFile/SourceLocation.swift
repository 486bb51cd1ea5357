/// A position in a route file: 1-based line and 1-based column counted in UTF-8 bytes, as
/// compilers report them (so editors' `file:line:column` jumps land on the right character).
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The file's path as given to the loader, or a name such as `<memory>`.
    public var file: String
    /// The line, from 1.
    public var line: Int
    /// The column, from 1, in UTF-8 bytes.
    public var column: Int

    /// Creates a location.
    public init(file: String, line: Int, column: Int) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// The location `byteOffset` bytes further along the same line.
    func advanced(by byteOffset: Int) -> SourceLocation {
        SourceLocation(file: file, line: line, column: column + byteOffset)
    }

    public var description: String { "\(file):\(line):\(column)" }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
