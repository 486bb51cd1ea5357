import Foundation
import SharedState

/// How the engine turns its values into column text and back.
///
/// Dates inside stored JSON keep full precision (seconds since the reference date as a double), so a timeline
/// read back compares equal to the one written.
enum EngineCoding {
    static func text<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        guard let data = try? encoder.encode(value), let text = String(data: data, encoding: .utf8) else {
            preconditionFailure("engine values always encode: \(T.self)")
        }
        return text
    }

    static func value<T: Decodable>(_ type: T.Type, from text: String?, column: String) throws -> T {
        guard let text else { throw EngineError.corruptRow(column: column, detail: "NULL") }
        do {
            return try JSONDecoder().decode(type, from: Data(text.utf8))
        } catch {
            throw EngineError.corruptRow(column: column, detail: "\(error)")
        }
    }
}
