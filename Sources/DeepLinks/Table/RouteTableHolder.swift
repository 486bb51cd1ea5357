import Synchronization

/// Holds the route table a running process uses and swaps in new tables atomically.
///
/// Readers take the current table (a reference) under a lock and match without holding it, so a
/// swap never waits for matches and a match never sees half a table. A reload that fails leaves
/// the current table in place: a bad table never replaces a good one.
public final class RouteTableHolder: Sendable {
    private let current: Mutex<RouteTable>

    /// Starts with `table`.
    public init(_ table: RouteTable) { current = Mutex(table) }

    /// The table in use now.
    public var table: RouteTable { current.withLock { $0 } }

    /// Replaces the table.
    public func replace(with table: RouteTable) { current.withLock { $0 = table } }

    /// Builds a new table with `build` and swaps it in only if building succeeds.
    /// - Throws: whatever `build` throws; the current table is then unchanged.
    public func reload(_ build: () throws(RouteLoadError) -> RouteTable) throws(RouteLoadError) {
        let table = try build()
        replace(with: table)
    }

    /// Reloads from every `*.routes` file of `directory` (see `RouteTable.load(directory:)`).
    public func reload(directory: String) throws(RouteLoadError) {
        try reload { () throws(RouteLoadError) in try RouteTable.load(directory: directory) }
    }

    /// Routes `url` with the current table.
    public func match(_ url: String, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        table.match(url, context: context)
    }

    /// Routes `url` with the current table and lends the match to `body` (see
    /// `RouteTable.withMatch`); the table stays alive until `body` returns, even if it is replaced.
    public func withMatch<Value, Failure: Error>(_ url: String, context: TapContext = .any,
                                                 _ body: (borrowing RouteMatchView) throws(Failure) -> Value) throws(Failure)
        -> Result<Value, RoutingFailure> {
        try table.withMatch(url, context: context, body)
    }
}

extension RouteTable {
    /// Loads every `*.routes` file of `directory`, in file-name order, with default settings.
    /// - Throws: `RouteLoadError` with every problem of every file.
    public static func load(directory: String) throws(RouteLoadError) -> RouteTable {
        var builder = RouteTableBuilder()
        builder.addDirectory(at: directory)
        return try builder.build()
    }

    /// Loads the given `.routes` files, in the order given, with default settings.
    public static func load(files: [String]) throws(RouteLoadError) -> RouteTable {
        var builder = RouteTableBuilder()
        for file in files { builder.addFile(at: file) }
        return try builder.build()
    }

    /// Parses `text` as one `.routes` file.
    public static func parse(_ text: String, file: String = "<memory>") throws(RouteLoadError) -> RouteTable {
        var builder = RouteTableBuilder()
        builder.addFile(text: text, file: file)
        return try builder.build()
    }
}
