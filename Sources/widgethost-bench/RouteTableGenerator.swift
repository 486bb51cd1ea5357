import DeepLinks
import Foundation

/// Generates route tables of realistic shape, and URL mixes for them, deterministically, so that
/// WidgetHost and the Python peers time the same table and the same URLs.
///
/// Routes come in families of four per resource `resN`: `ROOT/resN/{id}`, `ROOT/resN/{id}/edit`,
/// `ROOT/resN/{id}/items/{item}` and `ROOT/resN/new` (with a query rule). ROOT alternates between
/// the custom scheme (`myapp://resN/...`, where the resource is the host) and universal links on
/// five hosts (`https://appK.example.com/resN/...`). URLs: 60% match, 25% near misses (a letter
/// where a number belongs, an extra segment), 15% unknown resources.
struct RouteTableGenerator {
    /// One generated route in the three syntaxes.
    struct GeneratedRoute {
        let name: String
        let pattern: String
        let definition: RouteDefinition
        /// Peer template with `{name}` / `{name:int}` placeholders, path only: `/myapp/res3/{id:int}`.
        let peerTemplate: String
    }

    /// One URL and the route it should reach.
    struct GeneratedURL {
        let url: String
        /// The path the peers route (`/scheme/host/path`).
        let peerPath: String
        let expectedRoute: String?
    }

    let routes: [GeneratedRoute]
    let urls: [GeneratedURL]

    init(routeCount: Int, urlCount: Int) {
        var routes: [GeneratedRoute] = []
        for index in 0..<routeCount {
            let family = index / 4
            let custom = family % 2 == 0
            let root = custom ? "myapp://res\(family)" : "https://app\(family % 5)\\.example\\.com/res\(family)"
            let peerRoot = custom ? "/myapp/res\(family)" : "/https/app\(family % 5).example.com/res\(family)"
            var queryRules: [QueryRule] = []
            let (suffix, peerSuffix): (String, String)
            switch index % 4 {
            case 0: (suffix, peerSuffix) = ("/(?<id>[0-9]+)", "/{id:int}")
            case 1: (suffix, peerSuffix) = ("/(?<id>[0-9]+)/edit", "/{id:int}/edit")
            case 2: (suffix, peerSuffix) = ("/(?<id>[0-9]+)/items/(?<item>[a-z0-9-]+)", "/{id:int}/items/{item}")
            default:
                (suffix, peerSuffix) = ("/new", "/new")
                queryRules = [QueryRule(name: "source", isRequired: false, valuePattern: "(homescreen|lockscreen|stack)")]
            }
            let name = "r\(index)"
            let pattern = root + suffix
            let example = RouteTableGenerator.url(forRoute: index, variant: 0)
            routes.append(GeneratedRoute(
                name: name, pattern: pattern,
                definition: RouteDefinition(name: name, pattern: pattern, target: "Screen\(index % 4)", queryRules: queryRules,
                                            examples: [example]),
                peerTemplate: peerRoot + peerSuffix))
        }
        self.routes = routes

        var random = SplitMix64(seed: UInt64(routeCount))
        var urls: [GeneratedURL] = []
        for _ in 0..<urlCount {
            let index = Int(random.next() % UInt64(routeCount))
            let roll = random.next() % 100
            let variant = roll < 60 ? 0 : roll < 85 ? 1 : 2
            let url = RouteTableGenerator.url(forRoute: index, variant: variant)
            urls.append(GeneratedURL(url: url, peerPath: RouteTableGenerator.peerPath(url), expectedRoute: variant == 0 ? "r\(index)" : nil))
        }
        self.urls = urls
    }

    /// Variant 0 matches route `index`; 1 is a near miss; 2 names an unknown resource.
    static func url(forRoute index: Int, variant: Int) -> String {
        let family = index / 4
        let root = variant == 2 ? "myapp://nores\(family)" : family % 2 == 0 ? "myapp://res\(family)" : "https://app\(family % 5).example.com/res\(family)"
        let id = 1000 + index * 7
        switch (index % 4, variant) {
        case (0, 0): return "\(root)/\(id)"
        case (1, 0): return "\(root)/\(id)/edit"
        case (2, 0): return "\(root)/\(id)/items/item-\(index)"
        case (3, 0): return "\(root)/new?source=homescreen"
        case (0, _): return "\(root)/x\(id)"
        case (1, _): return "\(root)/\(id)/edit/more"
        case (2, _): return "\(root)/\(id)/items/Item_\(index)"
        default: return "\(root)/new/\(id)"
        }
    }

    /// `url` changed so that it needs canonicalizing but routes the same: with `capitals`, its scheme
    /// in capitals (`MYAPP://`, `HTTPS://`); else the first digit that starts a path segment escaped
    /// (`/1007` → `/%31007`). Native UTF-8, as a URL read from a request is.
    static func needingCanonicalization(_ url: String, capitals: Bool) -> String {
        let changed: String
        if capitals {
            changed = url.replacingOccurrences(of: "myapp:", with: "MYAPP:").replacingOccurrences(of: "https:", with: "HTTPS:")
        } else if let slash = url.range(of: "/[0-9]", options: .regularExpression) {
            let digit = url.index(after: slash.lowerBound)
            changed = url.replacingCharacters(in: digit...digit, with: "%3" + String(url[digit]))
        } else {
            changed = url
        }
        // Foundation's replacing makes strings whose UTF-8 is not contiguous; the router would copy each.
        return String(decoding: Array(changed.utf8), as: UTF8.self)
    }

    /// `scheme://host/path?query` -> `/scheme/host/path` for routers that see only paths.
    static func peerPath(_ url: String) -> String {
        let withoutQuery = url.split(separator: "?", maxSplits: 1)[0]
        let parts = withoutQuery.split(separator: ":", maxSplits: 1)
        return "/" + parts[0] + parts[1].dropFirst(2).description.split(separator: "/", omittingEmptySubsequences: false)
            .reduce(into: "") { $0 += "/" + $1 }
    }
}

/// A small deterministic pseudo-random generator (SplitMix64).
struct SplitMix64 {
    private var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var value = state
        value = (value ^ (value >> 30)) &* 0xBF58_476D_1CE4_E5B9
        value = (value ^ (value >> 27)) &* 0x94D0_49BB_1331_11EB
        return value ^ (value >> 31)
    }
}
