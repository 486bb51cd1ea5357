import JSON

/// The dashboard's routes in the document: the page and its files, served without the bearer token (`security: []`,
/// no 401), so that a browser can load them before the user has typed the token.
extension OpenAPIDocument {
    static let dashboardPaths: [String: JSONValue] = [
        "/": ["get": withoutToken([
            "operationId": "redirectToDashboard",
            "summary": "Redirects to the dashboard at /ui/.",
            "responses": ["303": [
                "description": "See /ui/.",
                "headers": ["Location": ["schema": ["type": "string", "const": "/ui/"]]],
            ]],
        ])],
        "/ui": ["get": withoutToken([
            "operationId": "getDashboard",
            "summary": "The dashboard page (also at /ui/): its data comes from this API, with the token typed into it.",
            "responses": ["200": ["description": "The page.", "content": ["text/html": ["schema": string()]]]],
        ])],
        "/ui/{file}": ["get": withoutToken([
            "operationId": "getDashboardFile",
            "summary": "One of the dashboard's files (page, style sheet, scripts).",
            "parameters": [pathParameter("file", string(values: DashboardFiles.all.map(\.name)), "The file's name.")],
            "responses": [
                "200": ["description": "The file.", "content": [
                    "text/html": ["schema": string()], "text/css": ["schema": string()],
                    "text/javascript": ["schema": string()],
                ]],
                "404": ["$ref": "#/components/responses/Error"],
            ],
        ])],
    ]

    /// An operation that needs no token.
    private static func withoutToken(_ operation: [String: JSONValue]) -> JSONValue {
        var operation = operation
        operation["security"] = []
        return .object(operation)
    }
}
