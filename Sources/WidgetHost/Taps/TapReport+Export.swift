import Foundation

extension TapReport {
    /// The report as CSV (RFC 4180): a header line, then one line per row, CRLF line ends; a field holding a
    /// comma, a double quote, CR or LF is quoted, with its quotes doubled.
    ///
    /// Columns: the grouped dimensions in query order, then `bucket_start` (ISO 8601, UTC) and `bucket` (local
    /// label) when bucketed, then `taps` and `suspicious`.
    public func csv() -> String {
        var header = query.dimensions.map(\.rawValue)
        if query.bucket != nil { header += ["bucket_start", "bucket"] }
        header += ["taps", "suspicious"]
        var lines = [CSV.line(header)]
        for row in rows {
            var fields = query.dimensions.map { row.value($0) ?? "" }
            if query.bucket != nil {
                fields += [row.bucketStart.map { $0.formatted(Date.ISO8601FormatStyle()) } ?? "", row.bucket ?? ""]
            }
            fields += [String(row.taps), String(row.suspicious)]
            lines.append(CSV.line(fields))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}

/// RFC 4180 fields and lines.
public enum CSV {
    /// One field, quoted when it holds a comma, a double quote, CR or LF.
    public static func field(_ value: String) -> String {
        guard value.contains(where: { $0 == "," || $0 == "\"" || $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else {
            return value
        }
        return "\"" + value.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }

    /// Fields joined by commas (without the line end).
    public static func line(_ fields: [String]) -> String {
        fields.map(field).joined(separator: ",")
    }
}

extension Array where Element == UnmatchedURL {
    /// The unmatched-URL report as RFC 4180 CSV: `url,taps,last_tapped,nearest_route,reason`.
    public func csv() -> String {
        var lines = [CSV.line(["url", "taps", "last_tapped", "nearest_route", "reason"])]
        for item in self {
            lines.append(CSV.line([item.url, String(item.taps), item.lastTapped.formatted(Date.ISO8601FormatStyle()),
                                   item.nearest?.routeName ?? "", item.nearest?.explanation ?? "invalid URL"]))
        }
        return lines.joined(separator: "\r\n") + "\r\n"
    }
}
