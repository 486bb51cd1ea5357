/// What matching found, as plain values (no references counted): the route, what a match keeps of
/// the URL's layout, and where the route's groups matched. `RouteTable.match` turns it into a
/// `RouteMatch`, which holds the route and the URL; `RouteTable.find` into a `FoundRoute`, from
/// which `RouteTable.withMatch` makes a `RouteMatchView`, which borrows them.
///
/// The route, not its order: taken from the plan's entry that matching has just read, it needs no
/// second lookup (at 10,000 routes, the table's `routes[order]` was a cache miss of its own).
struct RouteHit {
    /// The route, not retained: the table's `routes` keep it alive.
    let route: Unmanaged<Route>
    let url: MatchedURL
    let captures: CaptureSpans
}
