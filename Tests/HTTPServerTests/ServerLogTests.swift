import Foundation
import Testing
import HTTPServer

@Suite("JSON-line log")
struct ServerLogTests {
    @Test("a line is one JSON object with time, level, msg first and escaped fields")
    func lineFormat() throws {
        let lines = LockedLines()
        let log = ServerLog(level: .debug, sink: { lines.append($0) })
        log.log(.warning, "odd \"thing\"", ["path": "/a\nb", "status": 404, "duration_ms": .double(1.23456)],
                date: Date(timeIntervalSince1970: 1_795_960_800.25))
        let line = try #require(lines.get().first)
        #expect(line.hasSuffix("}\n"))
        #expect(line.hasPrefix(#"{"time":"2026-11-29T14:00:00.250Z","level":"warning","msg":"odd \"thing\"","#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        #expect(object["path"] as? String == "/a\nb")
        #expect(object["status"] as? Int == 404)
        #expect(object["duration_ms"] as? Double == 1.235)
    }

    @Test("lines below the level are dropped", arguments: LogLevel.allCases)
    func filtering(level: LogLevel) {
        let lines = LockedLines()
        let log = ServerLog(level: level, sink: { lines.append($0) })
        for candidate in LogLevel.allCases {
            log.log(candidate, candidate.rawValue)
        }
        let written = lines.get().count
        #expect(written == LogLevel.allCases.filter { $0 >= level }.count)
    }
}
