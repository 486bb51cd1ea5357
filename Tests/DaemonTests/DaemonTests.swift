import Testing

/// The daemon's tests, one at a time: each starts a daemon (or the built binary), and on two cores running them
/// side by side would starve the other targets' server tests running at the same time.
@Suite(.serialized)
enum DaemonTests {}
