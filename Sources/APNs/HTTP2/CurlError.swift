import CCurl

/// A transfer libcurl could not finish: its `CURLcode`, libcurl's name for it, and the detail from the transfer's
/// error buffer (`CURLOPT_ERRORBUFFER`). A dropped connection, a refused connect and a TLS failure all end here.
///
/// See [libcurl error codes](https://curl.se/libcurl/c/libcurl-errors.html).
public struct CurlError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `CURLcode`.
    public var code: Int
    /// `curl_easy_strerror(code)`.
    public var message: String
    /// The transfer's error buffer, when libcurl wrote one.
    public var detail: String

    init(_ code: CURLcode, detail: String = "") {
        self.code = Int(code.rawValue)
        message = String(cString: curl_easy_strerror(code))
        self.detail = detail
    }

    public var description: String {
        "libcurl error \(code) (\(message))" + (detail.isEmpty || detail == message ? "" : ": \(detail)")
    }

    /// Setting an option can only fail on our own bug (an unknown option, a bad value type) or out of memory: stop.
    static func precondition(_ code: CURLcode, _ option: String, function: String = #function) {
        Swift.precondition(code == CURLE_OK, "curl_easy_setopt(\(option)) failed in \(function): \(CurlError(code))")
    }

    /// The multi interface fails only on our misuse (a bad handle, a call from a callback) or out of memory: stop.
    static func precondition(_ code: CURLMcode, _ call: String, function: String = #function) {
        Swift.precondition(code == CURLM_OK || code == CURLM_CALL_MULTI_PERFORM,
                           "\(call) failed in \(function): \(String(cString: curl_multi_strerror(code)))")
    }
}
