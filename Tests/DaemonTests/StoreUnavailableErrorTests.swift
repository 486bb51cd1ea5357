import HTTPServer
import JSON
import PostgresStore
import Testing
@testable import WidgetHostServer

extension DaemonTests {
    /// What a request that met a failing shared store is answered: 503 `store_unavailable` with the outcome, for a
    /// lost server and for conflicts that outlasted every retry alike; never 500.
    @Suite("Shared store failures answered 503")
    struct StoreUnavailableErrorTests {
        func outcome(_ error: APIError) -> JSONValue? {
            guard case .object(let members) = error.detail else { return nil }
            return members["outcome"]
        }

        @Test("a conflict still refused after the last retry is 503, nothing stored, retry")
        func exhaustedConflictIs503() {
            let conflict = PostgresError(kind: .server, sqlState: "40001",
                                         message: "could not serialize access due to read/write dependencies")
            #expect(conflict.isTransient && !conflict.isUnavailable)
            let error = APIError.storeUnavailable(conflict)
            #expect(error.status == .serviceUnavailable)
            #expect(error.code == .storeUnavailable)
            #expect(error.message.contains("conflicts with concurrent ones"))
            #expect(outcome(error) == .string("not-stored"))
        }

        @Test("a server lost before COMMIT and one lost during it say different outcomes")
        func lostServer() {
            let lost = APIError.storeUnavailable(PostgresError(kind: .unavailable, message: "server closed"))
            #expect(lost.status == .serviceUnavailable)
            #expect(outcome(lost) == .string("not-stored"))
            let during = APIError.storeUnavailable(PostgresError(kind: .commitOutcomeUnknown, message: "lost"))
            #expect(outcome(during) == .string("unknown"))
            #expect(during.message.contains("may have been stored"))
        }
    }
}
