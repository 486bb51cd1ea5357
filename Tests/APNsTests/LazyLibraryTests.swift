import APNs
import CLazyLibrary
import Testing

/// libcurl and libpq are opened on first use (CLazyLibrary), not linked: what a missing library or function says.
@Suite("Libraries opened on first use")
struct LazyLibraryTests {
    /// `clazy_library_probe`'s answer: nil when it loaded, else its message.
    static func probe(_ file: String, _ function: String) -> String? {
        var error = [CChar](repeating: 0, count: 512)
        guard clazy_library_probe(file, function, &error, error.count) != 0 else { return nil }
        return String(decoding: error.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    @Test func aMissingLibraryIsNamedWithTheLoadersReason() {
        let message = Self.probe("libwidgethost-absent.so.7", "absent_function")
        #expect(message?.hasPrefix("libwidgethost-absent.so.7 could not be loaded: ") == true, "\(message ?? "loaded")")
        #expect(message?.contains("No such file") == true, "\(message ?? "loaded")")
    }

    @Test func aMissingFunctionIsNamedWithItsLibrary() {
        #expect(Self.probe("libcurl.so.4", "curl_easy_no_such_call")
            == "libcurl.so.4 has no function curl_easy_no_such_call (an older version than the one required?)")
    }

    @Test func thePresentLibrariesLoad() {
        #expect(Self.probe("libcurl.so.4", "curl_multi_poll") == nil)
        #expect(Self.probe("libpq.so.5", "PQexecPrepared") == nil)
    }
}
