/// The endpoints every server has.
enum BuiltinRoutes {
    /// The body of `GET /healthz`.
    struct Health: Encodable {
        var status = "ok"
    }

    /// Adds `GET /healthz` (200 `{"status":"ok"}`) and `GET /metrics` (Prometheus text format 0.0.4).
    static func register(in router: inout HTTPRouter, metrics: MetricsRegistry) {
        let health = HTTPResponse.json(Health())
        router.addSynchronous(.get, "/healthz") { _, _ in
            health
        }
        router.addSynchronous(.get, "/metrics") { _, _ in
            var response = HTTPResponse.text(metrics.render())
            response.headers["Content-Type"] = "text/plain; version=0.0.4; charset=utf-8"
            return response
        }
    }
}
