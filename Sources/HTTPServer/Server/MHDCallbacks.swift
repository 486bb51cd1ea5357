import CMicroHTTPD
import Foundation

// libmicrohttpd's callbacks, as nonisolated top-level functions: they run on MHD's worker threads, so
// they must not inherit an actor (a closure in main.swift would be @MainActor and trap there). Their
// `cls` argument is the server's `RequestDispatcher`, retained by `MHDDaemon` for the daemon's lifetime.
// See https://www.gnu.org/software/libmicrohttpd/manual/libmicrohttpd.html

/// `MHD_AccessHandlerCallback`, called several times per request:
/// 1. first call (the context, made by ``widgetHostRequestLineRead``, not yet begun): begin it, read headers,
///    refuse a head with bytes HTTP does not allow (``RequestHead``), resolve the route, check the token and a
///    declared `Content-Length`; answer at once only if there is a body not worth reading.
/// 2. calls with upload data: append to the body up to the cap, or discard it once over the cap.
/// 3. the call with no more data: answer (queueing here, not on call 1, keeps the connection alive), running
///    a synchronous handler right here; or start an `async` handler's `Task` (see ``HandlerBridging``) and
///    queue its response if it already finished, else suspend the connection.
/// 4. after `MHD_resume_connection`: queue the handler's response.
func widgetHostAccessHandler(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ url: UnsafePointer<CChar>?,
    _ method: UnsafePointer<CChar>?,
    _ version: UnsafePointer<CChar>?,
    _ uploadData: UnsafePointer<CChar>?,
    _ uploadDataSize: UnsafeMutablePointer<Int>?,
    _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?
) -> MHD_Result {
    guard let cls, let connection, let requestState else { return .NO }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()

    // MHD calls the URI log callback for every request line it accepts, before this handler.
    guard let state = requestState.pointee else { return .NO }
    let context = Unmanaged<RequestContext>.fromOpaque(state).takeUnretainedValue()

    if !context.isBegun {
        dispatcher.begin(
            context,
            method: HTTPMethod(rawValue: method.map { String(cString: $0) } ?? ""),
            path: url.map { String(cString: $0) } ?? "/"
        )
        let head = MHDConnectionValues.headerFields(of: connection)
        context.headers = head.headers
        let fault = method.flatMap { method in url.flatMap { url in version.flatMap { version in
            RequestHead.fault(method: method, url: url, version: version, scan: context.target, fields: head.fields,
                              connection: connection)
        } } }
        if let early = fault?.response ?? dispatcher.preflight(context) {
            if MHDConnectionValues.expectsBody(context.headers) {
                return MHDConnectionValues.queue(dispatcher.finalize(early, for: context), on: connection)
            }
            context.earlyResponse = early
        }
        return .YES
    }

    if let uploadDataSize, uploadDataSize.pointee > 0 {
        if context.earlyResponse == nil, let uploadData {
            if context.body.count + uploadDataSize.pointee > dispatcher.maximumBodySize {
                context.body = Data()
                context.earlyResponse = APIError.payloadTooLarge(limit: dispatcher.maximumBodySize).response
            } else {
                uploadData.withMemoryRebound(to: UInt8.self, capacity: uploadDataSize.pointee) {
                    context.body.append($0, count: uploadDataSize.pointee)
                }
            }
        }
        uploadDataSize.pointee = 0
        return .YES
    }

    if let response = context.takeCompletedResponse() ?? context.earlyResponse {
        context.earlyResponse = nil
        return MHDConnectionValues.queue(dispatcher.finalize(response, for: context), on: connection)
    }

    let body = context.body
    context.body = Data()
    func makeRequest() -> HTTPRequest {
        HTTPRequest(
            method: context.method,
            path: context.path,
            queryItems: MHDConnectionValues.queryItems(of: connection),
            headers: context.headers,
            body: body,
            remoteAddress: MHDConnectionValues.remoteAddress(of: connection),
            id: context.id
        )
    }
    let match = context.match
    if let response = dispatcher.respondWithoutSuspending(to: makeRequest(), match: match) {
        return MHDConnectionValues.queue(dispatcher.finalize(response, for: context), on: connection)
    }
    let request = makeRequest()
    dispatcher.awaitHandler(of: context)
    switch dispatcher.bridging {
    case .inlineThenSuspend, .suspendResume:
        context.markRunning()
        let run: @Sendable () async -> Void = {
            let response = await dispatcher.respond(to: request, match: match)
            context.finish(with: response)
        }
        if dispatcher.bridging == .inlineThenSuspend {
            let executor = InlineFirstExecutor.shared
            executor.runFirstJobInline {
                Task(executorPreference: executor, operation: run)
            }
        } else {
            Task(operation: run)
        }
        if let response = context.suspendUnlessCompleted(ConnectionHandle(pointer: connection)) {
            return MHDConnectionValues.queue(dispatcher.finalize(response, for: context), on: connection)
        }
        return .YES
    case .blockWorker:
        let done = DispatchSemaphore(value: 0)
        Task {
            context.finish(with: await dispatcher.respond(to: request, match: match))
            done.signal()
        }
        done.wait()
        let response = context.takeCompletedResponse() ?? APIError.shuttingDown.response
        return MHDConnectionValues.queue(dispatcher.finalize(response, for: context), on: connection)
    }
}

/// `MHD_OPTION_URI_LOG_CALLBACK`: MHD has read a request line and not yet split or decoded its target. Makes the
/// request's context, holding the target's scan (see ``RequestHead``); its pointer becomes `*req_cls`.
func widgetHostRequestLineRead(
    _ cls: UnsafeMutableRawPointer?,
    _ uri: UnsafePointer<CChar>?,
    _ connection: OpaquePointer?
) -> UnsafeMutableRawPointer? {
    let scan = uri.map(RequestHead.scanTarget) ?? RequestHead.TargetScan(length: 0)
    return Unmanaged.passRetained(RequestContext(target: scan)).toOpaque()
}

/// `MHD_RequestCompletedCallback`: the response was sent (or the connection died); drop the context.
func widgetHostRequestCompleted(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ requestState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_RequestTerminationCode
) {
    guard let cls, let requestState, let state = requestState.pointee else { return }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
    let context = Unmanaged<RequestContext>.fromOpaque(state).takeRetainedValue()
    requestState.pointee = nil
    dispatcher.end(context)
}

/// `MHD_NotifyConnectionCallback`: counts connections for the metrics.
func widgetHostConnectionNotified(
    _ cls: UnsafeMutableRawPointer?,
    _ connection: OpaquePointer?,
    _ socketState: UnsafeMutablePointer<UnsafeMutableRawPointer?>?,
    _ code: MHD_ConnectionNotificationCode
) {
    guard let cls else { return }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
    if code == .CONNECTION_NOTIFY_STARTED {
        dispatcher.metrics.connectionOpened()
    } else {
        dispatcher.metrics.connectionClosed()
    }
}

/// `MHD_UnescapeCallback` that leaves text as received. MHD would otherwise percent-decode the whole
/// path before we split it, turning `%2F` inside a parameter into a separator; we decode per segment
/// (``EndpointTable/resolve(_:path:)``) and per query item (``MHDConnectionValues/queryItems(of:)``).
func widgetHostKeepEscaped(_ cls: UnsafeMutableRawPointer?, _ connection: OpaquePointer?, _ text: UnsafeMutablePointer<CChar>?) -> Int {
    text.map { strlen($0) } ?? 0
}

/// `MHD_LogCallback`: libmicrohttpd's own messages go to the server log at `warning`.
func widgetHostLogMessage(_ cls: UnsafeMutableRawPointer?, _ format: UnsafePointer<CChar>?, _ arguments: CVaListPointer?) {
    guard let cls, let format, let arguments else { return }
    let dispatcher = Unmanaged<RequestDispatcher>.fromOpaque(cls).takeUnretainedValue()
    guard dispatcher.log.isEnabled(.warning) else { return }
    var buffer = [CChar](repeating: 0, count: 512)
    _ = vsnprintf(&buffer, buffer.count, format, arguments)
    let message = String(nulTerminated: buffer).trimmingCharacters(in: .whitespacesAndNewlines)
    dispatcher.log.log(.warning, "libmicrohttpd", ["detail": .string(message)])
}
