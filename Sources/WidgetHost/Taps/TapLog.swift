import DeepLinks
import Foundation

/// Where widget taps are kept and counted: the engine's SQLite (``TapStore``, the default) or a PostgreSQL
/// database several daemons share (``PostgresTapLog``, Docs/postgres.md).
///
/// Every implementation keeps the same promises, which one contract test suite holds both to: a batch is stored
/// whole or not at all, and is durable when the call returns; a tap is routed through ``routes`` as it is
/// stored; reports equal what counting the stored taps one by one gives, whichever plan answers them (the
/// quarter-hour rollups, kept in the taps' own transaction, or the taps); unmatched URLs come most tapped first,
/// ties by URL in byte order.
public protocol TapLog: Sendable {
    /// The route table taps are routed through.
    var routes: RouteTableHolder { get }

    /// Routes and stores many taps in one transaction: all are stored, or (on an error) none.
    /// - Returns: What was stored for each tap, in order.
    /// - Throws: ``TapError`` for the first tap whose widget cannot be determined, or a store error.
    @discardableResult
    func record(batch taps: [Tap]) throws -> [RecordedTap]

    /// How many taps are stored in `[from, to)`.
    func count(from: Date, to: Date) throws -> Int

    /// Counts taps as `query` says.
    func report(_ query: TapReportQuery) throws -> TapReport

    /// The URLs tapped in `[from, to)` that matched no route (open ends: the first and last tap), most tapped
    /// first, each with the route that came nearest.
    func unmatchedURLs(from: Date?, to: Date?, limit: Int) throws -> [UnmatchedURL]
}

extension TapStore: TapLog {}
