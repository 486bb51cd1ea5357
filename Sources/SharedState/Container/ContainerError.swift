/// Why an App Group container could not be opened.
public enum ContainerError: Error, CustomStringConvertible, Sendable, Equatable {
    /// What is wrong with an identifier.
    public enum IdentifierProblem: Sendable, Equatable {
        /// The identifier is empty.
        case empty
        /// The identifier is longer than ``AppGroupContainer/maximumIdentifierByteCount`` UTF-8 bytes.
        case tooLong(byteCount: Int)
        /// The identifier starts with a dot (hidden files, `.` and `..`).
        case leadingDot
        /// The identifier holds a character outside `A-Z a-z 0-9 . - _` (path separators,
        /// spaces, control and non-ASCII characters), at the given UTF-8 byte offset.
        case forbiddenCharacter(Unicode.Scalar, byteOffset: Int)
    }

    /// The identifier cannot name a container.
    case invalidIdentifier(String, IdentifierProblem)
    /// The data directory does not exist and could not be created.
    case cannotCreateDirectory(path: String, reason: String)

    public var description: String {
        switch self {
        case .invalidIdentifier(let identifier, let problem):
            let shown = identifier.debugDescription
            switch problem {
            case .empty:
                return "invalid App Group identifier \(shown): it is empty"
            case .tooLong(let byteCount):
                return "invalid App Group identifier \(shown.prefix(40))…: \(byteCount) UTF-8 bytes, "
                    + "the limit is \(AppGroupContainer.maximumIdentifierByteCount)"
            case .leadingDot:
                return "invalid App Group identifier \(shown): it starts with a dot"
            case .forbiddenCharacter(let scalar, let offset):
                let code = "U+" + String(scalar.value, radix: 16, uppercase: true)
                return "invalid App Group identifier \(shown): character \(scalar.escaped(asASCII: true)) (\(code)) "
                    + "at byte \(offset) is not allowed; use only A-Z a-z 0-9 . - _"
            }
        case .cannotCreateDirectory(let path, let reason):
            return "cannot create the App Group data directory '\(path)': \(reason)"
        }
    }
}
