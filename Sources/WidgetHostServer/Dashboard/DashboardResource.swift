import Foundation
import HTTPServer

/// The dashboard: a page in the browser over the `/v1` API (Docs/dashboard.md).
///
/// - `GET /` → 303 to `/ui/`
/// - `GET /ui`, `GET /ui/` → the page (`index.html`)
/// - `GET /ui/{file}` → one of its files (``DashboardFiles``); 404 `not_found` for any other name
///
/// These routes answer without the bearer token: the files are the same for everyone and hold no data. The page's
/// scripts ask the `/v1` API for everything they show, sending the token the user types once; so with a token
/// configured, the page shows nothing to whoever does not have it. Responses carry a content security policy that
/// lets the page load only its own files and talk only to this daemon.
enum DashboardResource: APIResource {
    /// What every file response carries: no caching across daemon versions, no sniffing, no framing, nothing
    /// loaded or contacted beyond this origin.
    static let securityHeaders: HTTPHeaders = [
        "Cache-Control": "no-cache",
        "X-Content-Type-Options": "nosniff",
        "X-Frame-Options": "DENY",
        "Referrer-Policy": "no-referrer",
        "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; "
            + "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ]

    static func register(in router: inout APIRouter, context: APIContext) {
        let index = response(for: DashboardFiles.index)
        router.getWithoutToken("/") { _, _ in
            HTTPResponse(status: .seeOther, headers: ["Location": "/ui/"])
        }
        router.getWithoutToken("/ui") { _, _ in index }
        let responses = Dictionary(uniqueKeysWithValues: DashboardFiles.all.map { ($0.name, response(for: $0)) })
        router.getWithoutToken("/ui/{file}") { _, parameters in
            let name = try parameters.require("file")
            guard let response = responses[name] else {
                throw APIError.notFound("the dashboard has no file '\(name)'", detail: ["file": .string(name)])
            }
            return response
        }
    }

    /// A file's response, built once.
    private static func response(for file: DashboardFiles.File) -> HTTPResponse {
        var headers = securityHeaders
        headers["Content-Type"] = file.contentType
        return HTTPResponse(status: .ok, headers: headers, body: file.contents)
    }
}
