import Foundation
import WidgetHost

extension TapChart {
    /// Taps by local hour of day (columns) and weekday (rows, Monday first), as a heat map with a colour legend.
    ///
    /// Each cell is a `<rect class="cell" data-weekday="…" data-hour="…" data-taps="…">` with a tooltip.
    /// - Parameters:
    ///   - report: A report bucketed by hour; its rows are summed per local hour and weekday of the query's zone.
    ///   - title: The chart's title; a default names the time zone.
    /// - Returns: A standalone SVG document (well-formed XML).
    public static func heatMap(_ report: TapReport, title: String? = nil) -> String {
        let zone = report.query.timeZone
        let calendar = Calendar.device(in: zone)
        var grid = Array(repeating: Array(repeating: 0, count: 24), count: 7)
        for row in report.rows {
            guard let start = row.bucketStart else { continue }
            let parts = calendar.dateComponents([.weekday, .hour], from: start)
            // Calendar weekdays run Sunday = 1 ... Saturday = 7; rows run Monday ... Sunday.
            let weekday = ((parts.weekday ?? 1) + 5) % 7
            grid[weekday][parts.hour ?? 0] += row.taps
        }
        let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let maximum = grid.flatMap { $0 }.max() ?? 0
        let cell = 34.0
        let plot = (left: 64.0, top: 92.0)
        let width = plot.left + 24 * cell + 40
        let height = plot.top + 7 * cell + 110
        var canvas = SVGCanvas(width: width, height: height)
        let heading = title ?? "Taps by hour and weekday (\(TapChart.zoneName(zone)))"
        canvas.text(heading, x: width / 2, y: 32, anchor: "middle", size: 18, weight: "bold")
        for hour in 0..<24 {
            canvas.text(String(format: "%02d", hour), x: plot.left + (Double(hour) + 0.5) * cell, y: plot.top - 8,
                        anchor: "middle", size: 11)
        }
        canvas.text("hour of day", x: plot.left + 12 * cell, y: plot.top - 32, anchor: "middle", size: 12)
        for (weekday, name) in names.enumerated() {
            canvas.text(name, x: plot.left - 8, y: plot.top + (Double(weekday) + 0.5) * cell + 4, anchor: "end",
                        size: 12)
            for hour in 0..<24 {
                let count = grid[weekday][hour]
                canvas.raw("<rect class=\"cell\" data-weekday=\"\(name)\" data-hour=\"\(hour)\" data-taps=\"\(count)\" "
                           + "x=\"\(SVGCanvas.number(plot.left + Double(hour) * cell))\" "
                           + "y=\"\(SVGCanvas.number(plot.top + Double(weekday) * cell))\" "
                           + "width=\"\(SVGCanvas.number(cell - 2))\" height=\"\(SVGCanvas.number(cell - 2))\" "
                           + "fill=\"\(color(count, maximum: maximum))\"><title>\(name) "
                           + "\(String(format: "%02d:00", hour)): \(count) taps</title></rect>")
            }
        }
        let legendY = plot.top + 7 * cell + 36
        canvas.text("taps per hour", x: plot.left, y: legendY - 8, size: 12, weight: "bold")
        let steps = 10
        for step in 0...steps {
            let value = Int((Double(maximum) * Double(step) / Double(steps)).rounded())
            canvas.rect(x: plot.left + Double(step) * 30, y: legendY, width: 30, height: 14,
                        fill: color(value, maximum: maximum))
        }
        canvas.text("0", x: plot.left, y: legendY + 30, size: 11)
        canvas.text(String(maximum), x: plot.left + Double(steps + 1) * 30, y: legendY + 30, anchor: "end", size: 11)
        return canvas.document(title: heading)
    }

    /// White for no taps, through light blue to dark blue at `maximum`.
    static func color(_ count: Int, maximum: Int) -> String {
        guard maximum > 0, count > 0 else { return "#f4f6f8" }
        let t = min(1, Double(count) / Double(maximum))
        let from = (222.0, 235.0, 247.0)
        let to = (8.0, 48.0, 107.0)
        func mix(_ a: Double, _ b: Double) -> Int { Int((a + (b - a) * t).rounded()) }
        return String(format: "#%02x%02x%02x", mix(from.0, to.0), mix(from.1, to.1), mix(from.2, to.2))
    }
}
