/// What matching found, as plain values (no references): the route's position in the table, what
/// a match keeps of the URL's layout, and where the route's groups matched. `RouteTable.match`
/// turns it into a `RouteMatch`, which holds the route and the URL; `RouteTable.find` into a
/// `FoundRoute`, from which `RouteTable.withMatch` makes a `RouteMatchView`, which borrows them.
struct RouteHit {
    /// The route's order in the table.
    let order: Int
    let url: MatchedURL
    let captures: CaptureSpans

    @inline(__always)
    init(order: Int, url: MatchedURL, captures: CaptureSpans) {
        self.order = order
        self.url = url
        self.captures = captures
    }
}
