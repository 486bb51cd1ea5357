import DeepLinks
import Foundation
import SharedState

/// The durable log of widget taps: each tap is routed through the route table and stored with its route (or
/// none: a broken link), its widget, source, location and time, and what the family check found.
///
/// Taps live in the engine store (`widgethost.sqlite`, table `taps`): one file to back up, and Smart Stack
/// ranking reads a widget's recent taps in the same snapshot as its timeline. Each ``record(_:)`` call is a
/// transaction; ``record(batch:)`` stores many taps in one transaction, which is what gives throughput (one
/// durable commit per batch instead of one per tap). A call returns once its commit is durable.
///
/// The same transaction adds the taps to the per-quarter-hour counts (``TapRollup``) that answer reports without
/// reading every tap, so a report never disagrees with the taps it covers.
public final class TapStore: Sendable {
    /// The engine store the taps live in.
    public let engineStore: EngineStore
    /// The route table taps are routed through; swap tables in it to change routing for later taps.
    public let routes: RouteTableHolder

    /// Opens the tap log of an engine store.
    /// - Parameters:
    ///   - engineStore: The engine store (its migrations create the `taps` table).
    ///   - routes: The route table to route taps through.
    public init(engineStore: EngineStore, routes: RouteTableHolder) {
        self.engineStore = engineStore
        self.routes = routes
    }

    /// Opens the tap log of an engine store with a fixed route table.
    public convenience init(engineStore: EngineStore, routes: RouteTable) {
        self.init(engineStore: engineStore, routes: RouteTableHolder(routes))
    }

    var database: DatabaseStore { engineStore.database }

    /// Routes and stores one tap.
    /// - Throws: ``TapError`` when the tap's widget cannot be determined, or a store error.
    @discardableResult
    public func record(_ tap: Tap) throws -> RecordedTap {
        try record(batch: [tap])[0]
    }

    /// Routes and stores many taps in one transaction: all are stored, or (on an error) none.
    /// - Returns: What was stored for each tap, in order.
    /// - Throws: ``TapError`` for the first tap whose widget cannot be determined, or a store error.
    @discardableResult
    public func record(batch taps: [Tap]) throws -> [RecordedTap] {
        guard !taps.isEmpty else { return [] }
        let table = routes.table
        return try database.write { db in
            var widgets: [String: (kind: String, family: String)?] = [:]
            var recorded: [RecordedTap] = []
            var rollups = TapRollupBatch()
            recorded.reserveCapacity(taps.count)
            for tap in taps {
                guard let quarter = TapRollup.quarter(of: tap.date) else {
                    throw TapError.dateOutOfRange(url: tap.url, date: tap.date.timeIntervalSince1970)
                }
                let (kind, family) = try Self.widget(of: tap, cache: &widgets, db)
                let diagnostic = TapDiagnostic.check(source: tap.source, family: family)
                let context = TapContext(source: tap.source, family: WidgetFamilyName(rawValue: family))
                // Only the name is kept, so the match is lent (nothing held) rather than returned.
                let route = try? table.withMatch(tap.url, context: context) { $0.routeName }.get()
                try db.execute("""
                    INSERT INTO taps(tapped_at, url, route, instance_id, kind, family, source, location, suspicious,
                        diagnostic) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                    """, [tap.date.sqlValue, .text(tap.url), route.map(SQLValue.text) ?? .null,
                          tap.instanceID.map(SQLValue.text) ?? .null, .text(kind), .text(family),
                          .text(tap.source.rawValue), .text(tap.location.rawValue),
                          .integer(diagnostic == nil ? 0 : 1), diagnostic.map { .text($0.rawValue) } ?? .null])
                recorded.append(RecordedTap(id: db.lastInsertRowID, route: route, kind: kind, family: family,
                                            diagnostic: diagnostic))
                rollups.add(quarter: quarter, route: route, suspicious: diagnostic != nil)
            }
            try rollups.write(db)
            return recorded
        }
    }

    /// How many taps are stored in `[from, to)`.
    public func count(from: Date = .distantPast, to: Date = .distantFuture) throws -> Int {
        try database.read { db in
            try db.scalar("SELECT count(*) FROM taps WHERE tapped_at >= ? AND tapped_at < ?",
                          [from.sqlValue, to.sqlValue], as: Int.self) ?? 0
        }
    }

    static func widget(of tap: Tap, cache: inout [String: (kind: String, family: String)?],
                               _ db: Database) throws -> (kind: String, family: String) {
        if let id = tap.instanceID {
            if cache[id] == nil {
                let row = try db.queryOne("SELECT kind, family FROM widget_instances WHERE id = ?", [.text(id)])
                cache[id] = .some(row.flatMap { row in
                    row.string("kind").flatMap { kind in row.string("family").map { (kind, $0) } }
                })
            }
            if let found = cache[id] ?? nil { return found }
            guard let kind = tap.kind, let family = tap.family else { throw TapError.unknownInstance(id) }
            return (kind, family)
        }
        guard let kind = tap.kind, let family = tap.family else { throw TapError.widgetUnknown(url: tap.url) }
        return (kind, family)
    }
}
