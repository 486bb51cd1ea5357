import Foundation
import WidgetHost

/// Plain-text renderings of tap reports: aligned columns.
enum TapText {
    static func report(_ report: TapReport) -> String {
        var header = report.query.dimensions.map(\.rawValue)
        if let bucket = report.query.bucket { header.append(bucket.rawValue) }
        header += ["taps", "suspicious"]
        var rows = [header]
        for row in report.rows {
            var fields = report.query.dimensions.map { row.value($0) ?? "" }
            if report.query.bucket != nil { fields.append(row.bucket ?? "") }
            rows.append(fields + [String(row.taps), String(row.suspicious)])
        }
        rows.append(["total"] + Array(repeating: "", count: header.count - 3)
                    + [String(report.totalTaps), String(report.totalSuspicious)])
        return table(rows)
    }

    static func unmatched(_ items: [UnmatchedURL]) -> String {
        guard !items.isEmpty else { return "no unmatched taps" }
        var rows = [["taps", "url", "nearest route", "why"]]
        for item in items {
            rows.append([String(item.taps), item.url, item.nearest?.routeName ?? "-",
                         item.nearest?.explanation ?? "not a valid URL"])
        }
        return table(rows)
    }

    private static func table(_ rows: [[String]]) -> String {
        let widths = rows.reduce(into: [Int]()) { widths, row in
            for (index, field) in row.enumerated() {
                if index < widths.count { widths[index] = max(widths[index], field.count) } else { widths.append(field.count) }
            }
        }
        return rows.map { row in
            row.enumerated().map { index, field in
                field + String(repeating: " ", count: widths[index] - field.count)
            }.joined(separator: "  ").trimmingCharacters(in: .whitespaces)
        }.joined(separator: "\n")
    }
}
