import COpenSSL
import Foundation

/// The key of an interned served-instance list in the reload log (``ReloadLogSchema``): the SHA-256 of the list's
/// stored text (its UTF-8 bytes, the JSON array `EngineCoding.text(strings:)` writes), 32 bytes.
///
/// A cryptographic digest, so that two different lists never share a key in practice (a collision of SHA-256 has
/// never been found) and a run's row can name its list by the digest alone, without comparing the texts. Anyone can
/// check a stored list against its key (`sha256sum` of the `instance_ids` text).
///
/// See [EVP_Digest](https://www.openssl.org/docs/man3.0/man3/EVP_Digest.html).
enum ServedListDigest {
    /// The digest's length in bytes.
    static let length = 32

    /// SHA-256 fetched once from OpenSSL's default provider (an implicit fetch on every call costs a look-up in the
    /// provider's store), or nil when the provider does not have it, in which case ``of(_:)`` lets `EVP_Digest`
    /// fetch it each time.
    private static let sha256 = FetchedSHA256()

    /// The digest of `text`'s UTF-8 bytes.
    static func of(_ text: String) -> Data {
        var text = text
        return text.withUTF8 { bytes in
            var digest = Data(count: length)
            digest.withUnsafeMutableBytes { output in
                var written: UInt32 = 0
                let status = EVP_Digest(bytes.baseAddress, bytes.count,
                                        output.baseAddress?.assumingMemoryBound(to: UInt8.self), &written,
                                        sha256.algorithm ?? EVP_sha256(), nil)
                // SHA-256 of a buffer in memory fails only when OpenSSL cannot allocate or has no SHA-256 at all.
                precondition(status == 1 && written == length, "OpenSSL could not compute a SHA-256 digest")
            }
            return digest
        }
    }
}

/// The `EVP_MD` of SHA-256 fetched from OpenSSL's default library context, freed never: it lives as long as the
/// process, as ``ServedListDigest``'s static does.
private final class FetchedSHA256: Sendable {
    // A fetched EVP_MD is immutable and may be shared by threads (OpenSSL 3's fetching documentation): it is only
    // passed to EVP_Digest, which makes its own context per call.
    nonisolated(unsafe) let algorithm: OpaquePointer?

    init() {
        algorithm = EVP_MD_fetch(nil, "SHA2-256", nil)
    }
}
