/// The token every request must present when one is configured.
struct BearerToken: Sendable {
    private let expected: [UInt8]

    init(_ token: String) {
        expected = Array(token.utf8)
    }

    /// Whether an `Authorization` header value is `Bearer <token>` (scheme case-insensitive).
    ///
    /// The comparison takes the same time wherever the first differing byte is, so response timing does
    /// not reveal how much of a guess was right. (Length differences still show; the token's length is
    /// not the secret.)
    func accepts(authorization: String?) -> Bool {
        guard let authorization else { return false }
        let prefix = "bearer "
        guard authorization.count > prefix.count, authorization.prefix(prefix.count).lowercased() == prefix else { return false }
        let presented = Array(authorization.utf8.dropFirst(prefix.utf8.count))
        var difference: UInt8 = presented.count == expected.count ? 0 : 1
        for index in 0..<max(presented.count, expected.count) {
            let left = index < presented.count ? presented[index] : 0
            let right = index < expected.count ? expected[index] : 0
            difference |= left ^ right
        }
        return difference == 0
    }
}
