import CCurl
import Foundation

/// The client's thread: adds submitted requests to the multi handle, runs it, and hands finished transfers to the
/// completion handler. Everything here runs on that one thread, as libcurl requires of a multi handle.
final class HTTP2Loop: @unchecked Sendable {
    // @unchecked: created on the caller's thread and from then on used only by the client's thread (`run`).
    private let multi: UnsafeMutableRawPointer
    private let configuration: HTTP2Client.Configuration
    private let completion: @Sendable (HTTP2Completion) -> Void
    private var transfers: [UnsafeMutableRawPointer: HTTP2Transfer] = [:]
    private var idleHandles: [UnsafeMutableRawPointer] = []

    init(multi: UnsafeMutableRawPointer, configuration: HTTP2Client.Configuration,
         completion: @escaping @Sendable (HTTP2Completion) -> Void) {
        self.multi = multi
        self.configuration = configuration
        self.completion = completion
    }

    /// Runs until `take` reports stopping; then aborts what is left and frees every handle, the multi handle last.
    /// - Parameters:
    ///   - take: The requests submitted since the last call, and whether the client is stopping.
    ///   - ended: Called with how many requests just completed.
    func run(take: () -> ([HTTP2Request], Bool), ended: (Int) -> Void) {
        let clock = ContinuousClock()
        while true {
            let (requests, stopping) = take()
            if stopping { break }
            for request in requests { start(request, at: clock.now) }
            var running: Int32 = 0
            CurlError.precondition(curl_multi_perform(multi, &running), "curl_multi_perform")
            let done = finish(at: clock.now)
            if done > 0 { ended(done) }
            CurlError.precondition(curl_multi_poll(multi, nil, 0, 200, nil), "curl_multi_poll")
        }
        let now = clock.now
        var aborted = 0
        for (handle, transfer) in transfers {
            CurlError.precondition(curl_multi_remove_handle(multi, handle), "curl_multi_remove_handle")
            completion(transfer.completion(handle, code: CURLE_ABORTED_BY_CALLBACK, at: now))
            curl_easy_cleanup(handle)
            aborted += 1
        }
        transfers.removeAll()
        let (unstarted, _) = take()
        for request in unstarted {
            completion(HTTP2Completion(tag: request.tag, result: .failure(CurlError(CURLE_ABORTED_BY_CALLBACK)),
                                       latency: .zero))
        }
        ended(aborted + unstarted.count)
        for handle in idleHandles { curl_easy_cleanup(handle) }
        idleHandles.removeAll()
        curl_multi_cleanup(multi)
    }

    private func start(_ request: HTTP2Request, at now: ContinuousClock.Instant) {
        guard let handle = idleHandles.popLast() ?? curl_easy_init() else {
            completion(HTTP2Completion(tag: request.tag, result: .failure(CurlError(CURLE_OUT_OF_MEMORY)), latency: .zero))
            return
        }
        let transfer = HTTP2Transfer(request, submittedAt: now)
        transfer.configure(handle, url: configuration.origin + request.path, configuration: configuration)
        transfers[handle] = transfer
        CurlError.precondition(curl_multi_add_handle(multi, handle), "curl_multi_add_handle")
    }

    /// Completes every transfer libcurl reports done. Returns how many.
    private func finish(at now: ContinuousClock.Instant) -> Int {
        var count = 0
        var left: Int32 = 0
        while let message = curl_multi_info_read(multi, &left) {
            guard message.pointee.msg == CURLMSG_DONE, let handle = message.pointee.easy_handle,
                  let transfer = transfers.removeValue(forKey: handle) else { continue }
            let code = ccurl_message_result(message)
            CurlError.precondition(curl_multi_remove_handle(multi, handle), "curl_multi_remove_handle")
            completion(transfer.completion(handle, code: code, at: now))
            idleHandles.append(handle)
            count += 1
        }
        return count
    }
}
