import HTTPServer

/// Checks of decoded body members that their JSON type cannot express, each answering 400 `invalid_field` like the
/// OpenAPI document's `pattern`, `minLength` and `maxLength` say.
enum APIFields {
    /// Refuses an id that would not survive as one path segment: the instance id rules
    /// (`InstancesResource.idPattern`), checked byte by byte since a regular expression's `$` also matches before
    /// a final newline.
    static func identifier(_ value: String, field: String) throws {
        func allowed(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".")
        }
        let bytes = value.utf8
        guard (1...128).contains(bytes.count), bytes.first != UInt8(ascii: "."), bytes.allSatisfy(allowed) else {
            throw APIError.invalidField(field, "expected 1 to 128 characters of A-Z a-z 0-9 . _ -, "
                                            + "not starting with a dot")
        }
    }

    /// Refuses text whose length in Unicode scalars (JSON Schema's characters) is outside `length`.
    static func text(_ value: String, field: String, length: ClosedRange<Int>) throws {
        guard length.contains(value.unicodeScalars.count) else {
            throw APIError.invalidField(field, "expected \(length.lowerBound) to \(length.upperBound) characters")
        }
    }
}
