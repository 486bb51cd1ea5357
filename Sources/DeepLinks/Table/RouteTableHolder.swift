import Synchronization

/// Holds the route table a running process uses and swaps in new tables atomically.
///
/// Readers take the current table (a reference) under a lock and match without holding it, so a
/// swap never waits for matches and a match never sees half a table. A reload that fails leaves
/// the current table in place: a bad table never replaces a good one. Reloads run one at a time
/// (each builds and swaps under a second lock that matches never take), so two reloads racing each
/// other cannot leave the older of their tables in place.
///
/// A holder made from a directory (`init(loading:)`) remembers it, so that a running process can
/// reload its tables from the same files (`reload()`): `widgethost serve` does on `SIGHUP` and on
/// `POST /v1/routes/reload`. Tables read from a directory are linted too (`RouteTable.loadLinted`):
/// one whose own examples no longer reach their routes is as bad as one that does not parse.
public final class RouteTableHolder: Sendable {
    /// A table in use and its generation.
    public struct Snapshot: Sendable {
        /// The table.
        public let table: RouteTable
        /// 1 for the table the holder started with, one more for each table swapped in since.
        public let generation: Int
    }

    private let current: Mutex<Snapshot>
    /// Held while a reload builds its table and swaps it in.
    private let reloading = Mutex(())
    /// The directory `reload()` reads `*.routes` files from, if the table came from one.
    public let directory: String?

    /// Starts with `table`, generation 1.
    /// - Parameter directory: Where `table` was loaded from, for `reload()`; nil when it was built
    ///   otherwise (then only `reload(_:)`, `reload(directory:)` and `replace(with:)` change it).
    public init(_ table: RouteTable, directory: String? = nil) {
        current = Mutex(Snapshot(table: table, generation: 1))
        self.directory = directory
    }

    /// Loads every `*.routes` file of `directory` and lints the table (see `RouteTable.loadLinted`),
    /// and starts with it; `reload()` reads the same directory again.
    /// - Throws: `RouteLoadError` with every problem of every file, lint's included.
    public convenience init(loading directory: String) throws(RouteLoadError) {
        self.init(try RouteTable.loadLinted(directory: directory), directory: directory)
    }

    /// The table in use now.
    public var table: RouteTable { current.withLock { $0.table } }

    /// The table in use now, with its generation (read together).
    public var snapshot: Snapshot { current.withLock { $0 } }

    /// Replaces the table.
    public func replace(with table: RouteTable) { swap(in: table) }

    /// Swaps `table` in; returns it with its generation.
    @discardableResult
    private func swap(in table: RouteTable) -> Snapshot {
        current.withLock { snapshot in
            snapshot = Snapshot(table: table, generation: snapshot.generation + 1)
            return snapshot
        }
    }

    /// Builds a new table with `build` and swaps it in only if building succeeds.
    /// - Returns: The new table and its generation.
    /// - Throws: whatever `build` throws; the current table is then unchanged.
    @discardableResult
    public func reload(_ build: () throws(RouteLoadError) -> RouteTable) throws(RouteLoadError) -> Snapshot {
        try reloading.withLock { _ throws(RouteLoadError) in swap(in: try build()) }
    }

    /// Reloads from every `*.routes` file of `directory`, refusing a table lint finds errors in
    /// (see `RouteTable.loadLinted`).
    @discardableResult
    public func reload(directory: String) throws(RouteLoadError) -> Snapshot {
        try reload { () throws(RouteLoadError) in try RouteTable.loadLinted(directory: directory) }
    }

    /// Reloads from the directory the holder was made from.
    /// - Precondition: `directory` is not nil.
    /// - Throws: `RouteLoadError` with every problem of every file, lint's included; the current
    ///   table is then unchanged.
    @discardableResult
    public func reload() throws(RouteLoadError) -> Snapshot {
        guard let directory else { preconditionFailure("RouteTableHolder.reload(): the holder was not made from a directory") }
        return try reload(directory: directory)
    }

    /// Routes `url` with the current table.
    public func match(_ url: String, context: TapContext = .any) -> Result<RouteMatch, RoutingFailure> {
        table.match(url, context: context)
    }

    /// Routes `url` with the current table and lends the match to `body` (see
    /// `RouteTable.withMatch`); the table stays alive until `body` returns, even if it is replaced.
    ///
    /// Inlined, as the table's own `withMatch` is, so a caller's `body` and `Result` are specialized where it calls:
    /// a generic call here made each match instantiate its `Result` type at run time.
    @inlinable
    public func withMatch<Value, Failure: Error>(_ url: String, context: TapContext = .any,
                                                 _ body: (borrowing RouteMatchView) throws(Failure) -> Value) throws(Failure)
        -> Result<Value, RoutingFailure> {
        try table.withMatch(url, context: context, body)
    }

    /// Routes the URL whose UTF-8 is `utf8` with the current table and lends the match to `body` (see
    /// `RouteTable.withMatch(utf8:context:_:)`); the table stays alive until `body` returns. Inlined, as the one
    /// above.
    @inlinable
    public func withMatch<Value, Failure: Error>(utf8: UnsafeBufferPointer<UInt8>, context: TapContext = .any,
                                                 _ body: (borrowing RouteMatchView) throws(Failure) -> Value) throws(Failure)
        -> Result<Value, RoutingFailure> {
        try table.withMatch(utf8: utf8, context: context, body)
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

    /// Loads every `*.routes` file of `directory` for a running process: as `load(directory:)`, then
    /// refused if the table's own `lint()` finds an error (an example that its route no longer
    /// takes, or that an earlier route takes; a Link-only route on a family that cannot show a
    /// Link). Lint's warnings do not refuse a table.
    /// - Throws: `RouteLoadError` with every load problem, or with every lint finding (errors and
    ///   warnings, in file order) when only lint found errors.
    public static func loadLinted(directory: String) throws(RouteLoadError) -> RouteTable {
        let table = try load(directory: directory)
        let report = table.lint()
        if report.hasErrors { throw RouteLoadError(diagnostics: report.diagnostics) }
        return table
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
