import Foundation

/// A small SVG writer: elements appended as text, attribute values and text escaped for XML.
struct SVGCanvas {
    let width: Double
    let height: Double
    private(set) var body: [String] = []

    /// Ten distinguishable colours (Tableau 10), used in order for series.
    static let palette = ["#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f",
                          "#edc948", "#b07aa1", "#ff9da7", "#9c755f", "#bab0ac"]

    init(width: Double, height: Double) {
        self.width = width
        self.height = height
    }

    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            // Characters XML 1.0 forbids are dropped rather than producing an unreadable file.
            case _ where scalar.value < 0x20 && scalar != "\t" && scalar != "\n" && scalar != "\r": continue
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    static func number(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    /// ` name="value"` for each pair in order, values escaped: for the elements the helpers below do not cover.
    static func attributes(_ pairs: KeyValuePairs<String, String>) -> String {
        pairs.map { " \($0.key)=\"\(escape($0.value))\"" }.joined()
    }

    mutating func raw(_ element: String) {
        body.append(element)
    }

    mutating func text(_ content: String, x: Double, y: Double, anchor: String = "start", size: Double = 12,
                       weight: String = "normal", fill: String = "#333", rotate: Double? = nil) {
        let transform = rotate.map { " transform=\"rotate(\(Self.number($0)) \(Self.number(x)) \(Self.number(y)))\"" } ?? ""
        body.append("<text x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" text-anchor=\"\(anchor)\" "
                    + "font-size=\"\(Self.number(size))\" font-weight=\"\(weight)\" fill=\"\(fill)\"\(transform)>"
                    + Self.escape(content) + "</text>")
    }

    mutating func line(x1: Double, y1: Double, x2: Double, y2: Double, stroke: String, width: Double = 1,
                       dash: String? = nil) {
        let dashing = dash.map { " stroke-dasharray=\"\($0)\"" } ?? ""
        body.append("<line x1=\"\(Self.number(x1))\" y1=\"\(Self.number(y1))\" x2=\"\(Self.number(x2))\" "
                    + "y2=\"\(Self.number(y2))\" stroke=\"\(stroke)\" stroke-width=\"\(Self.number(width))\"\(dashing)/>")
    }

    mutating func rect(x: Double, y: Double, width: Double, height: Double, fill: String, stroke: String? = nil,
                       title: String? = nil) {
        let outline = stroke.map { " stroke=\"\($0)\"" } ?? ""
        let open = "<rect x=\"\(Self.number(x))\" y=\"\(Self.number(y))\" width=\"\(Self.number(width))\" "
            + "height=\"\(Self.number(height))\" fill=\"\(fill)\"\(outline)"
        if let title {
            body.append(open + "><title>" + Self.escape(title) + "</title></rect>")
        } else {
            body.append(open + "/>")
        }
    }

    /// The document: an XML declaration, the `svg` root with a white background, then the elements.
    func document(title: String) -> String {
        var lines = [
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>",
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(Int(width))\" height=\"\(Int(height))\" "
                + "viewBox=\"0 0 \(Int(width)) \(Int(height))\" font-family=\"Helvetica, Arial, sans-serif\">",
            "<title>\(Self.escape(title))</title>",
            "<rect x=\"0\" y=\"0\" width=\"\(Int(width))\" height=\"\(Int(height))\" fill=\"#ffffff\"/>",
        ]
        lines += body
        lines.append("</svg>")
        return lines.joined(separator: "\n") + "\n"
    }

    /// About five round tick values from 0 to at least `maximum` (1, 2 or 5 times a power of ten apart).
    static func ticks(upTo maximum: Double) -> [Double] {
        guard maximum > 0 else { return [0, 1] }
        let rough = maximum / 5
        let power = pow(10, floor(log10(rough)))
        let step = [1.0, 2, 5, 10].map { $0 * power }.first { $0 >= rough } ?? rough
        let top = ceil(maximum / step) * step
        return stride(from: 0, through: top + step / 2, by: step).map { $0 }
    }

    /// A tick label without a needless fraction.
    static func label(_ value: Double) -> String {
        value.rounded() == value ? String(Int(value)) : String(format: "%.1f", value)
    }
}
