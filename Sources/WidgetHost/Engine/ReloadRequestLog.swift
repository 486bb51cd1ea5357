import Synchronization

/// The `WidgetCenter` reload requests user code made while the engine ran it, in order.
///
/// ``UserCodeBinding`` collects requests here, for a provider's run and for a perform alike; the engine applies
/// them only after the user code has returned.
struct ReloadRequestLog: ~Copyable, Sendable {
    /// One request: a kind, or every kind.
    enum Request: Sendable, Hashable {
        case kind(String)
        case all
    }

    private let requests = Mutex<[Request]>([])

    func append(_ request: Request) {
        requests.withLock { $0.append(request) }
    }

    /// The requests so far, in order, without repeats.
    var requestsMade: [Request] {
        requests.withLock { Self.unique($0) }
    }

    private static func unique(_ requests: [Request]) -> [Request] {
        // Most user code asks for one reload, or none.
        if requests.count < 2 { return requests }
        var seen = Set<Request>()
        return requests.filter { seen.insert($0).inserted }
    }
}

extension ReloadRequestLog.Request {
    /// The kind, or `*` for every kind: how outcomes (``IntentOutcome/requestedReloads``) and the owed-reload table
    /// name a request.
    var label: String {
        switch self {
        case .kind(let kind): kind
        case .all: "*"
        }
    }

    /// The request a ``label`` names.
    init(label: String) {
        self = label == "*" ? .all : .kind(label)
    }
}
