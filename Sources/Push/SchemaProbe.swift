import Foundation
import JSON

/// Why the probe could not go on: the type refused every sample it was offered, or it recurses.
struct ProbeStop: Error, CustomStringConvertible {
    var description: String
}

/// Where the probe is: how deep, which types are being probed on the way down (to stop recursion), and the path.
struct ProbeContext {
    var depth: Int
    var inProgress: [ObjectIdentifier]
    var path: [any CodingKey]

    static let maximumDepth = 32

    func appending(_ key: any CodingKey) -> ProbeContext {
        ProbeContext(depth: depth, inProgress: inProgress, path: path + [key])
    }
}

/// A `Decoder` that hands a type sample values and records what the type asks for (see ``ContentStateSchema``).
struct SchemaProbe: Decoder {
    let slot: ProbeSlot
    let context: ProbeContext

    var codingPath: [any CodingKey] { context.path }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedDecodingContainer<Key> {
        slot.isObject = true
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(slot: slot, context: context))
    }

    func unkeyedContainer() -> any UnkeyedDecodingContainer {
        slot.isArray = true
        return ProbeUnkeyedContainer(slot: slot, context: context)
    }

    func singleValueContainer() -> any SingleValueDecodingContainer {
        ProbeSingleValueContainer(slot: slot, context: context)
    }

    /// Records `type`'s schema into `slot` and returns a sample of it: scalars and the types `JSONDecoder` treats
    /// specially (dates, data, URLs) directly, enumerable enums by their first case, everything else by running its
    /// `init(from:)` on a probe.
    static func sample<T: Decodable>(_ type: T.Type, into slot: ProbeSlot, context: ProbeContext) throws -> T {
        if let (schema, value) = ProbeScalars.sample(type) {
            slot.scalar = schema
            return value
        }
        if let (values, first) = ProbeScalars.cases(of: type) {
            slot.scalar = ["enum": .array(values)]
            return first
        }
        let identifier = ObjectIdentifier(type)
        guard context.depth < ProbeContext.maximumDepth, !context.inProgress.contains(identifier) else {
            throw ProbeStop(description: "\(type) contains itself at \(pointer(context.path)); described once")
        }
        let inner = ProbeContext(depth: context.depth + 1, inProgress: context.inProgress + [identifier],
                                 path: context.path)
        do {
            return try T(from: SchemaProbe(slot: slot, context: inner))
        } catch let stop as ProbeStop {
            throw stop
        } catch {
            throw ProbeStop(description: """
                the probe stopped at \(pointer(context.path)): \(type) takes none of the sample values (make it \
                CaseIterable to list its cases); members decoded after it are not described
                """)
        }
    }

    static func pointer(_ path: [any CodingKey]) -> String {
        let text = JSONPointer.appending(JSONPointer.tokens(path), to: "")
        return text.isEmpty ? "the top level" : text
    }
}

/// The scalars a probe answers directly, and enums it can enumerate.
enum ProbeScalars {
    static func sample<T>(_ type: T.Type) -> (JSONValue, T)? {
        let answer: (JSONValue, Any)? = switch type {
        case is Bool.Type: (["type": "boolean"], false)
        case is String.Type: (["type": "string"], "")
        case is Double.Type: (["type": "number"], 0.0)
        case is Float.Type: (["type": "number"], Float(0))
        case is Int.Type: (["type": "integer"], 0)
        case is Int8.Type: (["type": "integer"], Int8(0))
        case is Int16.Type: (["type": "integer"], Int16(0))
        case is Int32.Type: (["type": "integer"], Int32(0))
        case is Int64.Type: (["type": "integer"], Int64(0))
        case is UInt.Type: (["type": "integer", "minimum": 0], UInt(0))
        case is UInt8.Type: (["type": "integer", "minimum": 0], UInt8(0))
        case is UInt16.Type: (["type": "integer", "minimum": 0], UInt16(0))
        case is UInt32.Type: (["type": "integer", "minimum": 0], UInt32(0))
        case is UInt64.Type: (["type": "integer", "minimum": 0], UInt64(0))
        case is Decimal.Type: (["type": "number"], Decimal(0))
        case is Date.Type:
            (["type": "number", "description": "seconds since 2001-01-01 (JSONDecoder's default date strategy)"],
             Date(timeIntervalSinceReferenceDate: 0))
        case is Data.Type: (["type": "string", "contentEncoding": "base64"], Data())
        case is URL.Type: (["type": "string", "format": "uri"], URL(fileURLWithPath: "/"))
        case is UUID.Type: (["type": "string", "format": "uuid"], UUID())
        default: nil
        }
        guard let (schema, value) = answer, let typed = value as? T else { return nil }
        return (schema, typed)
    }

    /// The raw values of a `CaseIterable` enum whose raw values are strings or integers, and its first case.
    static func cases<T>(of type: T.Type) -> ([JSONValue], T)? {
        guard let iterable = type as? any CaseIterable.Type else { return nil }
        let all = allCases(iterable)
        var values: [JSONValue] = []
        for element in all {
            switch (element as? any RawRepresentable)?.rawValue {
            case let text as String: values.append(.string(text))
            case let number as Int: values.append(.int(number))
            default: return nil
            }
        }
        guard let first = all.first as? T else { return nil }
        return (values, first)
    }

    private static func allCases<C: CaseIterable>(_ type: C.Type) -> [Any] {
        type.allCases.map { $0 as Any }
    }
}
