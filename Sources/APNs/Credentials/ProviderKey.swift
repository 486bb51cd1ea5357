import COpenSSL
import Foundation

/// A team's APNs signing key: the `.p8` file Apple issues (a PKCS#8 PEM holding an EC P-256 private key), with its
/// 10-character key id.
///
/// Signing is ES256 as JWS wants it (RFC 7518 §3.4): SHA-256, ECDSA over P-256, and the signature as the raw 64 bytes
/// `r || s`, each left-padded to 32 bytes. OpenSSL answers DER (`SEQUENCE { INTEGER r, INTEGER s }`), which APNs
/// refuses with `InvalidProviderToken`, so ``sign(_:)`` converts it.
///
/// See [EVP_DigestSign](https://www.openssl.org/docs/man3.0/man3/EVP_DigestSign.html).
public final class ProviderKey: Sendable {
    /// The key id (`kid`) Apple shows next to the key.
    public let keyID: String
    // The key is only read after init (EVP_PKEY signing with a fresh EVP_MD_CTX per call is thread-safe in
    // OpenSSL 3), and freed once, in deinit.
    private nonisolated(unsafe) let key: OpaquePointer

    /// Loads a `.p8` file.
    /// - Throws: ``ProviderKeyError`` when the file cannot be read, is not a PEM private key, or not EC P-256; the
    ///   message names the path, never the key.
    public convenience init(keyID: String, path: String) throws {
        let pem: Data
        do {
            pem = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw ProviderKeyError(path: path, reason: "cannot be read (\(error.localizedDescription))")
        }
        try self.init(keyID: keyID, pem: pem, source: path)
    }

    /// Loads a key from the PEM text of a `.p8` file.
    /// - Parameter source: Where the PEM came from, for error messages.
    /// - Throws: ``ProviderKeyError``.
    public init(keyID: String, pem: Data, source: String = "the PEM") throws {
        guard keyID.utf8.count == 10, keyID.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else {
            throw ProviderKeyError(path: source, reason: "the key id '\(keyID)' is not 10 letters or digits")
        }
        guard !pem.contains(0) else { throw ProviderKeyError(path: source, reason: "contains a NUL byte") }
        let loaded: OpaquePointer? = pem.withUnsafeBytes { bytes in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return PEM_read_bio_PrivateKey(bio, nil, nil, nil)
        }
        guard let loaded else {
            let error = OpenSSLError("reading a private key")
            throw ProviderKeyError(path: source, reason: "is not a PEM private key (\(error))")
        }
        var group = [CChar](repeating: 0, count: 64)
        var length = 0
        guard EVP_PKEY_get_base_id(loaded) == copenssl_key_type_ec(),
              EVP_PKEY_get_utf8_string_param(loaded, copenssl_group_parameter(), &group, group.count, &length) == 1,
              String(decoding: group.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) == "prime256v1" else {
            EVP_PKEY_free(loaded)
            ERR_clear_error()
            throw ProviderKeyError(path: source, reason: "is not an EC P-256 key (APNs keys are ES256)")
        }
        self.keyID = keyID
        key = loaded
    }

    deinit { EVP_PKEY_free(key) }

    /// Signs `message` with ES256.
    /// - Returns: The 64-byte `r || s`.
    /// - Throws: ``OpenSSLError`` when OpenSSL fails (out of memory).
    public func sign(_ message: Data) throws -> Data {
        guard let context = EVP_MD_CTX_new() else { throw OpenSSLError("allocating a digest context") }
        defer { EVP_MD_CTX_free(context) }
        try OpenSSLError.check(EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key), "starting an ES256 signature")
        var length = 0
        let der: [UInt8] = try message.withUnsafeBytes { bytes throws(OpenSSLError) -> [UInt8] in
            let base = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
            try OpenSSLError.check(EVP_DigestSign(context, nil, &length, base, bytes.count), "sizing an ES256 signature")
            var der = [UInt8](repeating: 0, count: length)
            try OpenSSLError.check(EVP_DigestSign(context, &der, &length, base, bytes.count), "signing with ES256")
            return Array(der.prefix(length))
        }
        return try Self.rawSignature(der)
    }

    /// `r || s` from a DER `ECDSA-Sig-Value`.
    static func rawSignature(_ der: [UInt8]) throws -> Data {
        let signature: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &cursor, buffer.count)
        }
        guard let signature else { throw OpenSSLError("decoding an ECDSA signature") }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer?
        var s: OpaquePointer?
        ECDSA_SIG_get0(signature, &r, &s)
        var raw = [UInt8](repeating: 0, count: 64)
        guard let r, let s,
              BN_bn2binpad(r, &raw, 32) == 32,
              raw.withUnsafeMutableBufferPointer({ BN_bn2binpad(s, $0.baseAddress! + 32, 32) }) == 32 else {
            throw OpenSSLError("writing an ECDSA signature as r || s")
        }
        return Data(raw)
    }
}

/// A provider key that could not be loaded: where, and why (never the key's bytes).
public struct ProviderKeyError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `.p8` file (or what the PEM came from).
    public var path: String
    /// What is wrong with it.
    public var reason: String

    public var description: String { "APNs key '\(path)' \(reason)" }
}
