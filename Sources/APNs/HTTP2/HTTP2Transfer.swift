import CCurl
import Foundation

/// One request on its way: the easy handle's configuration and what the answer wrote so far. Owned by the client's
/// thread from ``HTTP2Client/submit(_:)``'s hand-over until it completes; libcurl reaches it through `CURLOPT_PRIVATE`.
final class HTTP2Transfer {
    let request: HTTP2Request
    let submittedAt: ContinuousClock.Instant
    /// The body, kept alive and unmoved while libcurl reads it (`CURLOPT_POSTFIELDS` does not copy).
    let body: UnsafeMutableRawBufferPointer
    var headerList: UnsafeMutablePointer<curl_slist>?
    var responseHeaders: [String: String] = [:]
    var responseBody = Data()
    /// `CURLOPT_ERRORBUFFER`: libcurl writes into it until the transfer ends, so it must not move.
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    init(_ request: HTTP2Request, submittedAt: ContinuousClock.Instant) {
        self.request = request
        self.submittedAt = submittedAt
        body = .allocate(byteCount: max(1, request.body.count), alignment: 1)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
        request.body.withUnsafeBytes { bytes in
            if let base = bytes.baseAddress { body.baseAddress!.copyMemory(from: base, byteCount: bytes.count) }
        }
    }

    deinit {
        body.deallocate()
        errorBuffer.deallocate()
        curl_slist_free_all(headerList)
    }

    /// Sets `handle` up for this request.
    func configure(_ handle: UnsafeMutableRawPointer, url: String, configuration: HTTP2Client.Configuration) {
        curl_easy_reset(handle)
        set(handle, CURLOPT_URL, url, "CURLOPT_URL")
        setLong(handle, CURLOPT_HTTP_VERSION, configuration.usesTLS
                ? Int(CURL_HTTP_VERSION_2TLS) : Int(CURL_HTTP_VERSION_2_PRIOR_KNOWLEDGE), "CURLOPT_HTTP_VERSION")
        setLong(handle, CURLOPT_PIPEWAIT, 1, "CURLOPT_PIPEWAIT")
        setLong(handle, CURLOPT_NOSIGNAL, 1, "CURLOPT_NOSIGNAL")
        setLong(handle, CURLOPT_POST, 1, "CURLOPT_POST")
        setLong(handle, CURLOPT_TIMEOUT_MS, Int(configuration.requestTimeout.seconds * 1000), "CURLOPT_TIMEOUT_MS")
        if let caFile = configuration.caFile { set(handle, CURLOPT_CAINFO, caFile, "CURLOPT_CAINFO") }
        CurlError.precondition(ccurl_easy_setopt_pointer(handle, CURLOPT_POSTFIELDS, body.baseAddress),
                               "CURLOPT_POSTFIELDS")
        CurlError.precondition(ccurl_easy_setopt_offset(handle, CURLOPT_POSTFIELDSIZE_LARGE,
                                                        curl_off_t(request.body.count)), "CURLOPT_POSTFIELDSIZE_LARGE")
        // libcurl adds a form content type to a POST and an `accept`; APNs wants neither.
        var list: UnsafeMutablePointer<curl_slist>? = curl_slist_append(nil, "content-type:")
        list = curl_slist_append(list, "accept:")
        for field in request.headers { list = curl_slist_append(list, "\(field.name): \(field.value)") }
        headerList = list
        CurlError.precondition(ccurl_easy_setopt_slist(handle, CURLOPT_HTTPHEADER, list), "CURLOPT_HTTPHEADER")
        let context = Unmanaged.passUnretained(self).toOpaque()
        CurlError.precondition(ccurl_easy_setopt_pointer(handle, CURLOPT_PRIVATE, context), "CURLOPT_PRIVATE")
        CurlError.precondition(ccurl_easy_setopt_pointer(handle, CURLOPT_WRITEDATA, context), "CURLOPT_WRITEDATA")
        CurlError.precondition(ccurl_easy_setopt_pointer(handle, CURLOPT_HEADERDATA, context), "CURLOPT_HEADERDATA")
        CurlError.precondition(ccurl_easy_setopt_callback(handle, CURLOPT_WRITEFUNCTION, { data, size, count, context in
            let transfer = Unmanaged<HTTP2Transfer>.fromOpaque(context!).takeUnretainedValue()
            if let data { transfer.responseBody.append(UnsafeRawPointer(data).assumingMemoryBound(to: UInt8.self),
                                                       count: size * count) }
            return size * count
        }), "CURLOPT_WRITEFUNCTION")
        CurlError.precondition(ccurl_easy_setopt_callback(handle, CURLOPT_HEADERFUNCTION, { data, size, count, context in
            let transfer = Unmanaged<HTTP2Transfer>.fromOpaque(context!).takeUnretainedValue()
            if let data {
                transfer.header(UnsafeRawBufferPointer(start: data, count: size * count))
            }
            return size * count
        }), "CURLOPT_HEADERFUNCTION")
        CurlError.precondition(ccurl_easy_setopt_pointer(handle, CURLOPT_ERRORBUFFER, errorBuffer),
                               "CURLOPT_ERRORBUFFER")
    }

    /// One header line as libcurl hands it over (`name: value\r\n`; the status line has no colon).
    private func header(_ line: UnsafeRawBufferPointer) {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return }
        let name = String(decoding: line[..<colon], as: UTF8.self).lowercased()
        let value = String(decoding: line[(colon + 1)...], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        responseHeaders[name] = value
    }

    /// The completion, once libcurl reported the transfer done with `code`.
    func completion(_ handle: UnsafeMutableRawPointer, code: CURLcode, at end: ContinuousClock.Instant) -> HTTP2Completion {
        let result: Result<HTTP2Response, CurlError>
        if code == CURLE_OK {
            var status = 0
            CurlError.precondition(ccurl_easy_getinfo_long(handle, CURLINFO_RESPONSE_CODE, &status),
                                   "CURLINFO_RESPONSE_CODE")
            result = .success(HTTP2Response(status: status, headers: responseHeaders, body: responseBody))
        } else {
            let detail = String(cString: errorBuffer)
            result = .failure(CurlError(code, detail: detail))
        }
        return HTTP2Completion(tag: request.tag, result: result, latency: end - submittedAt)
    }

    private func set(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: String, _ name: String) {
        CurlError.precondition(ccurl_easy_setopt_string(handle, option, value), name)
    }

    private func setLong(_ handle: UnsafeMutableRawPointer, _ option: CURLoption, _ value: Int, _ name: String) {
        CurlError.precondition(ccurl_easy_setopt_long(handle, option, value), name)
    }
}
