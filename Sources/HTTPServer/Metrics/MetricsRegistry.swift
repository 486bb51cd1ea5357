import Synchronization
/// The metrics a process exposes at `/metrics`, in the Prometheus text exposition format 0.0.4.
///
/// Components get their metrics once and keep them; asking again with the same name and labels returns
/// the same object:
///
/// ```swift
/// let reloads = registry.counter("widgethost_reloads_total", help: "Timeline reloads performed.",
///                                labels: ["reason": "budget"])
/// reloads.increment()
/// ```
///
/// Names follow Prometheus rules (`[a-zA-Z_:][a-zA-Z0-9_:]*`, counters ending in `_total`); label names
/// `[a-zA-Z_][a-zA-Z0-9_]*`. A bad name, or one name used for two kinds of metric, is a programming
/// error and stops the process. See https://prometheus.io/docs/instrumenting/exposition_formats/.
public final class MetricsRegistry: Sendable {
    enum Kind: String {
        case counter, gauge, histogram
    }

    enum Series {
        case counter(Counter)
        case gauge(Gauge)
        case histogram(Histogram)
    }

    struct Family {
        var kind: Kind
        var help: String
        var series: [MetricLabels: Series] = [:]
    }

    private let families = Mutex([String: Family]())

    /// Creates an empty registry.
    public init() {}

    /// The counter `name` with `labels`, created on first use.
    public func counter(_ name: String, help: String, labels: [String: String] = [:]) -> Counter {
        let series = lookUp(name, help: help, kind: .counter, labels: labels) { .counter(Counter()) }
        guard case .counter(let counter) = series else { preconditionFailure("\(name) is not a counter") }
        return counter
    }

    /// The gauge `name` with `labels`, created on first use.
    public func gauge(_ name: String, help: String, labels: [String: String] = [:]) -> Gauge {
        let series = lookUp(name, help: help, kind: .gauge, labels: labels) { .gauge(Gauge()) }
        guard case .gauge(let gauge) = series else { preconditionFailure("\(name) is not a gauge") }
        return gauge
    }

    /// The histogram `name` with `labels`, created on first use with `buckets` (upper bounds).
    public func histogram(
        _ name: String,
        help: String,
        labels: [String: String] = [:],
        buckets: [Double] = Histogram.defaultLatencyBuckets
    ) -> Histogram {
        let series = lookUp(name, help: help, kind: .histogram, labels: labels) { .histogram(Histogram(upperBounds: buckets)) }
        guard case .histogram(let histogram) = series else { preconditionFailure("\(name) is not a histogram") }
        return histogram
    }

    private func lookUp(_ name: String, help: String, kind: Kind, labels: [String: String], make: () -> Series) -> Series {
        let key = MetricLabels(labels)
        return families.withLock { families in
            if let existing = families[name]?.series[key] { return existing }
            precondition(MetricLabels.isValidMetricName(name), "invalid metric name \"\(name)\"")
            var family = families[name] ?? Family(kind: kind, help: help)
            precondition(family.kind == kind, "metric \(name) is a \(family.kind.rawValue), not a \(kind.rawValue)")
            let series = make()
            family.series[key] = series
            families[name] = family
            return series
        }
    }

    /// The metrics in the Prometheus text format: families sorted by name, series by labels.
    public func render() -> String {
        let copy = families.withLock { $0 }
        var lines: [String] = []
        for name in copy.keys.sorted() {
            guard let family = copy[name] else { continue }
            lines.append("# HELP \(name) \(MetricLabels.escapeHelp(family.help))")
            lines.append("# TYPE \(name) \(family.kind.rawValue)")
            for labels in family.series.keys.sorted() {
                switch family.series[labels] {
                case .counter(let counter):
                    lines.append("\(name)\(labels.rendered()) \(MetricLabels.format(counter.value))")
                case .gauge(let gauge):
                    lines.append("\(name)\(labels.rendered()) \(MetricLabels.format(gauge.value))")
                case .histogram(let histogram):
                    Self.render(histogram.snapshot, name: name, labels: labels, into: &lines)
                case nil:
                    break
                }
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func render(_ snapshot: Histogram.Snapshot, name: String, labels: MetricLabels, into lines: inout [String]) {
        var cumulative: UInt64 = 0
        for (index, count) in snapshot.bucketCounts.enumerated() {
            cumulative += count
            let bound = index < snapshot.upperBounds.count ? MetricLabels.format(snapshot.upperBounds[index]) : "+Inf"
            lines.append("\(name)_bucket\(labels.rendered(extra: ("le", bound))) \(cumulative)")
        }
        lines.append("\(name)_sum\(labels.rendered()) \(MetricLabels.format(snapshot.sum))")
        lines.append("\(name)_count\(labels.rendered()) \(snapshot.count)")
    }
}
