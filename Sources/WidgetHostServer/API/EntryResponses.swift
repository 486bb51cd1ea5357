import Foundation
import HTTPServer
import JSON
import Synchronization
import WidgetHost

/// The bodies of `GET /v1/instances/{id}/entry`, with each entry's JSON kept once written.
///
/// An entry's JSON depends only on the entry, and ``ShownEntry/timelineID`` with ``ShownEntry/index`` identifies
/// it, so under load the body is the `at` date around bytes already written. Bounded: past ``capacity`` entries
/// the memo starts again empty (timelines replaced by reloads leave entries nobody asks for).
final class EntryResponses: Sendable {
    private struct Key: Hashable {
        var timelineID: UInt64
        var index: Int
    }

    /// The most entries kept.
    static let capacity = 4096
    private let written = Mutex([Key: [UInt8]]())

    /// The 200 response for `shown`: ``V1/EntryAt``, as ``HTTPResponse/json(_:status:encoder:)`` would write it.
    func response(for shown: ShownEntry) -> HTTPResponse {
        let key = Key(timelineID: shown.timelineID, index: shown.index)
        let entry: [UInt8]
        if let known = written.withLock({ $0[key] }) {
            entry = known
        } else {
            var writer = JSONTextWriter()
            do {
                try V1.Entry(shown.entry).write(to: &writer)
            } catch {
                return APIError.internal(error).response
            }
            entry = writer.bytes
            written.withLock { written in
                if written.count >= Self.capacity { written.removeAll(keepingCapacity: true) }
                written[key] = entry
            }
        }
        var writer = JSONTextWriter(capacity: entry.count + 48)
        writer.beginObject()
        writer.key("at")
        writer.iso8601(shown.at)
        writer.key("entry")
        writer.encoded(entry)
        writer.endObject()
        return HTTPResponse(status: .ok, headers: ["Content-Type": "application/json"], body: writer.data)
    }
}
