import Foundation
import WidgetHost

/// SVG charts of tap reports, for a browser: a title, axes with tick labels, grid lines and a legend.
public enum TapChart {
    /// Taps per route over time, one line per route.
    ///
    /// Each route is one `<g class="series" data-route="…">` holding its line (and, for up to 62 buckets, a dot
    /// per bucket with a tooltip). Buckets without taps count 0. Routes are ordered by total taps, which is
    /// also the legend's order.
    /// - Parameters:
    ///   - report: A report bucketed by hour or day; rows are summed per route (other columns are ignored).
    ///     Without a bucket, the chart has one point per route.
    ///   - title: The chart's title; a default names the bucket, time zone and range.
    /// - Returns: A standalone SVG document (well-formed XML).
    public static func timeSeries(_ report: TapReport, title: String? = nil) -> String {
        let size = report.query.bucket ?? .day
        let zone = report.query.timeZone
        var totals: [String: Int] = [:]
        var counts: [String: [Date: Int]] = [:]
        var starts = Set<Date>()
        for row in report.rows {
            let route = row.route ?? "all taps"
            let start = row.bucketStart ?? Date(timeIntervalSince1970: 0)
            totals[route, default: 0] += row.taps
            counts[route, default: [:]][start, default: 0] += row.taps
            starts.insert(start)
        }
        let routes = totals.keys.sorted { (totals[$0]!, $1) > (totals[$1]!, $0) }
        let buckets: [Date]
        if let first = starts.min(), let last = starts.max(), report.query.bucket != nil {
            let sequence = TapBucketing.sequence(from: first, through: last, size: size, timeZone: zone)
            buckets = sequence.count < 5000 ? sequence : starts.sorted()
        } else {
            buckets = starts.sorted()
        }
        let legendRows = Double(routes.count)
        let width = 980.0
        let height = max(520.0, 120 + legendRows * 20)
        let plot = (left: 72.0, top: 64.0, right: width - 240, bottom: height - 96)
        var canvas = SVGCanvas(width: width, height: height)
        let heading = title ?? defaultTitle(report, buckets: buckets, size: size)
        canvas.text(heading, x: (plot.left + plot.right) / 2, y: 32, anchor: "middle", size: 18, weight: "bold")

        let maximum = Double(counts.values.flatMap(\.values).max() ?? 0)
        let ticks = SVGCanvas.ticks(upTo: maximum)
        let top = ticks.last ?? 1
        func y(_ value: Double) -> Double { plot.bottom - (plot.bottom - plot.top) * value / top }
        func x(_ index: Int) -> Double {
            buckets.count <= 1 ? (plot.left + plot.right) / 2
                : plot.left + (plot.right - plot.left) * Double(index) / Double(buckets.count - 1)
        }

        canvas.raw("<g class=\"axes\">")
        for tick in ticks {
            canvas.line(x1: plot.left, y1: y(tick), x2: plot.right, y2: y(tick), stroke: "#e5e5e5")
            canvas.text(SVGCanvas.label(tick), x: plot.left - 8, y: y(tick) + 4, anchor: "end", size: 11)
        }
        canvas.line(x1: plot.left, y1: plot.bottom, x2: plot.right, y2: plot.bottom, stroke: "#333")
        canvas.line(x1: plot.left, y1: plot.top, x2: plot.left, y2: plot.bottom, stroke: "#333")
        let every = max(1, Int((Double(buckets.count) / 8).rounded(.up)))
        for (index, start) in buckets.enumerated() where index % every == 0 {
            canvas.line(x1: x(index), y1: plot.bottom, x2: x(index), y2: plot.bottom + 5, stroke: "#333")
            canvas.text(TapBucketing.label(of: start, size: size, timeZone: zone), x: x(index), y: plot.bottom + 20,
                        anchor: "middle", size: 11)
        }
        canvas.text("taps per \(size.rawValue)", x: 20, y: (plot.top + plot.bottom) / 2, anchor: "middle",
                    size: 12, rotate: -90)
        canvas.text("\(size == .day ? "day" : "hour") (\(zoneName(zone)))", x: (plot.left + plot.right) / 2,
                    y: plot.bottom + 48, anchor: "middle", size: 12)
        canvas.raw("</g>")

        for (rank, route) in routes.enumerated() {
            let color = SVGCanvas.palette[rank % SVGCanvas.palette.count]
            let dash = rank < SVGCanvas.palette.count ? "" : " stroke-dasharray=\"6 3\""
            let series = counts[route] ?? [:]
            let points = buckets.enumerated().map { index, start in
                "\(SVGCanvas.number(x(index))),\(SVGCanvas.number(y(Double(series[start] ?? 0))))"
            }
            canvas.raw("<g class=\"series\" data-route=\"\(SVGCanvas.escape(route))\">")
            canvas.raw("<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" "
                       + "stroke-width=\"2\" stroke-linejoin=\"round\"\(dash)/>")
            if buckets.count <= 62 {
                for (index, start) in buckets.enumerated() {
                    let count = series[start] ?? 0
                    let label = "\(route), \(TapBucketing.label(of: start, size: size, timeZone: zone)): \(count) taps"
                    canvas.raw("<circle cx=\"\(SVGCanvas.number(x(index)))\" cy=\"\(SVGCanvas.number(y(Double(count))))\" "
                               + "r=\"3\" fill=\"\(color)\"><title>\(SVGCanvas.escape(label))</title></circle>")
                }
            }
            canvas.raw("</g>")
        }

        canvas.raw("<g class=\"legend\">")
        canvas.text("route (taps)", x: plot.right + 24, y: plot.top - 8, size: 12, weight: "bold")
        for (rank, route) in routes.enumerated() {
            let rowY = plot.top + 12 + Double(rank) * 20
            canvas.rect(x: plot.right + 24, y: rowY - 9, width: 14, height: 4 + 6,
                        fill: SVGCanvas.palette[rank % SVGCanvas.palette.count])
            canvas.text("\(route) (\(totals[route] ?? 0))", x: plot.right + 44, y: rowY, size: 12)
        }
        canvas.raw("</g>")
        return canvas.document(title: heading)
    }

    /// The zone's identifier, `UTC` for the zero-offset zone Foundation calls `GMT`.
    static func zoneName(_ zone: TimeZone) -> String {
        zone.identifier == "GMT" ? "UTC" : zone.identifier
    }

    static func defaultTitle(_ report: TapReport, buckets: [Date], size: TapTimeBucket) -> String {
        let zone = report.query.timeZone
        guard let first = buckets.first, let last = buckets.last else { return "Taps per route (no taps)" }
        let range = first == last ? TapBucketing.label(of: first, size: .day, timeZone: zone)
            : "\(TapBucketing.label(of: first, size: .day, timeZone: zone)) to \(TapBucketing.label(of: last, size: .day, timeZone: zone))"
        return "Taps per route per \(size.rawValue), \(range) (\(zoneName(zone)))"
    }
}
