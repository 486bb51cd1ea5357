import Foundation
import Push
import Testing

@Suite("Docs/push-checker.md documents every rule")
struct PushCheckerDocsTests {
    @Test("the rules table lists each code once, with its severity")
    func table() throws {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Docs/push-checker.md")
        let text = try String(contentsOf: docs, encoding: .utf8)
        var rows: [String: String] = [:]
        for line in text.split(separator: "\n") where line.hasPrefix("| `") {
            let cells = line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
            let code = cells[0].trimmingCharacters(in: CharacterSet(charactersIn: "`"))
            #expect(rows.updateValue(cells[1], forKey: code) == nil, "\(code) twice")
        }
        let expected = Dictionary(uniqueKeysWithValues: PushFindingCode.allCases.map { ($0.rawValue, $0.severity.rawValue) })
        #expect(rows == expected)
    }
}
