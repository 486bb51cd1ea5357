import Foundation

/// The names of a table's columns, in table order, as the row changes recorded on one schema hold them: shared by
/// every change of that table, so a change keeps its values in an array beside them rather than a dictionary of
/// its own, and writers that want the columns by name (JSON with sorted keys) find that order computed once.
package final class RowColumns: Sendable {
    /// The names, in the order of the values they name.
    package let names: [String]
    /// Indices into ``names`` in the order of the names' UTF-8 bytes (`JSONEncoder`'s `.sortedKeys` order).
    package let sortedIndices: [Int]

    package init(names: [String]) {
        self.names = names
        sortedIndices = names.indices.sorted { names[$0].utf8.lexicographicallyPrecedes(names[$1].utf8) }
    }

    /// `values` (one per name, in order) keyed by name.
    func dictionary(_ values: [SQLValue]) -> [String: SQLValue] {
        var result = [String: SQLValue](minimumCapacity: values.count)
        for (name, value) in zip(names, values) { result[name] = value }
        return result
    }

    /// The value of column `name` among `values`, if the table has that column.
    func value(_ name: String, in values: [SQLValue]) -> SQLValue? {
        guard let index = names.firstIndex(of: name), index < values.count else { return nil }
        return values[index]
    }

    /// A dictionary's members as names and values in the same order.
    static func split(_ row: [String: SQLValue]) -> (columns: RowColumns, values: [SQLValue]) {
        let members = Array(row)
        return (RowColumns(names: members.map(\.key)), members.map(\.value))
    }
}
