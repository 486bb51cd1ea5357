import Foundation

/// The dashboard's files, compiled into the binary from `Dashboard/Files/` (SwiftPM's `embedInCode` resources): the
/// daemon reads nothing from disk and fetches nothing to serve them.
enum DashboardFiles {
    /// One file of the page.
    struct File: Sendable {
        /// The name under `/ui/`.
        let name: String
        /// Its `Content-Type`.
        let contentType: String
        /// Its bytes.
        let contents: Data

        init(_ name: String, _ bytes: [UInt8]) {
            self.name = name
            contentType = Self.contentTypes[name.split(separator: ".").last.map(String.init) ?? ""]
                ?? "application/octet-stream"
            contents = Data(bytes)
        }

        private static let contentTypes = [
            "html": "text/html; charset=utf-8",
            "css": "text/css; charset=utf-8",
            "js": "text/javascript; charset=utf-8",
            "svg": "image/svg+xml; charset=utf-8",
        ]
    }

    /// The page itself.
    static let index = File("index.html", PackageResources.index_html)

    /// Every file, the page included.
    static let all: [File] = [
        index,
        File("dashboard.css", PackageResources.dashboard_css),
        File("dashboard.js", PackageResources.dashboard_js),
        File("widgets.js", PackageResources.widgets_js),
        File("taps.js", PackageResources.taps_js),
        File("stacks.js", PackageResources.stacks_js),
        File("activities.js", PackageResources.activities_js),
    ]
}
