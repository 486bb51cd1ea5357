@testable import PostgresStore
import Testing

/// SQLite's `?` placeholders numbered for PostgreSQL, as the push store and the tap log's reports send their SQL.
@Suite struct PostgresPlaceholdersTests {
    @Test("each ? outside quotes is numbered in order; quoted ones and multi-byte text are left as they are")
    func numbering() {
        #expect(PostgresPlaceholders.numbered("SELECT ? , ?, ?") == "SELECT $1 , $2, $3")
        #expect(PostgresPlaceholders.numbered("UPDATE t SET a = ? WHERE b = '?' AND \"c?\" = ?")
                == "UPDATE t SET a = $1 WHERE b = '?' AND \"c?\" = $2")
        #expect(PostgresPlaceholders.numbered("SELECT 'é?👋' || ?") == "SELECT 'é?👋' || $1")
        #expect(PostgresPlaceholders.numbered(String(repeating: "?,", count: 11) + "?")
                == (1...12).map { "$\($0)" }.joined(separator: ","))
        #expect(PostgresPlaceholders.numbered("SELECT 1") == "SELECT 1")
    }
}
