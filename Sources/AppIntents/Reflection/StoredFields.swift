@_spi(Reflection) import Swift
import Synchronization

/// The stored properties of intent types, found once per type: their names and key paths.
///
/// Reading an intent's parameters through `Mirror` costs tens of microseconds per instance (the runtime looks up
/// and demangles every field's type each time), and hosts read the parameters of a fresh instance for every
/// perform and every timeline. The fields of a type never change, so they are listed once, with the standard
/// library's `_forEachFieldWithKeyPath` (reflection SPI); each instance is then read through the key paths.
///
/// Types that reflection cannot list this way (classes, fields of unsupported kinds such as closures, types
/// with a custom mirror) are marked unsupported, and callers use `Mirror` for them.
enum StoredFields {
    /// One stored property: its name as `Mirror` labels it, and its key path.
    struct Field: @unchecked Sendable {
        // @unchecked Sendable: `AnyKeyPath` instances are immutable once created, and this one is created by the
        // standard library for a stored property, so sharing it between threads is safe.
        let label: String
        let path: AnyKeyPath
        /// The property a property wrapper's storage backs: `project` for `_project`; the label itself otherwise.
        let wrappedName: String
        /// For a property whose type is a parameter wrapper, its reader; `nil` for the others, read through
        /// ``path``.
        let parameter: ParameterReader?

        init<Root>(label: String, path: AnyKeyPath, in root: Root.Type) {
            self.label = label
            self.path = path
            wrappedName = label.hasPrefix("_") ? String(label.dropFirst()) : label
            parameter = ParameterReader(path, in: root)
        }
    }

    /// Reads a parameter wrapper stored in an intent at a fixed byte offset: typed, so a read is a load and a
    /// retain, where a read through an `AnyKeyPath` and a cast to the protocol went through the runtime twice.
    struct ParameterReader: Sendable {
        let offset: Int
        let load: @Sendable (UnsafeRawPointer) -> any AnyIntentParameter

        /// The reader of the stored property at `path`, when its type is a parameter wrapper and its offset known.
        init?<Root>(_ path: AnyKeyPath, in root: Root.Type) {
            guard let parameterType = type(of: path).valueType as? any AnyIntentParameter.Type,
                  let typed = path as? PartialKeyPath<Root>,
                  let offset = MemoryLayout<Root>.offset(of: typed) else { return nil }
            func loader<Parameter: AnyIntentParameter>(_: Parameter.Type)
                -> @Sendable (UnsafeRawPointer) -> any AnyIntentParameter {
                { base in base.load(fromByteOffset: offset, as: Parameter.self) }
            }
            self.offset = offset
            load = loader(parameterType)
        }
    }

    private enum Entry {
        case fields([Field])
        case unsupported
    }

    private static let cache = Mutex<[ObjectIdentifier: Entry]>([:])

    /// The stored properties of `type` in declaration order, or `nil` when they must be read through `Mirror`.
    static func of<Root>(_ type: Root.Type) -> [Field]? {
        let key = ObjectIdentifier(type)
        if let entry = cache.withLock({ $0[key] }) {
            if case .fields(let fields) = entry { return fields }
            return nil
        }
        let entry = list(type)
        cache.withLock { $0[key] = entry }
        if case .fields(let fields) = entry { return fields }
        return nil
    }

    private static func list<Root>(_ type: Root.Type) -> Entry {
        // A custom mirror may report other children than the stored properties.
        if type is any CustomReflectable.Type { return .unsupported }
        var fields: [Field] = []
        let complete = _forEachFieldWithKeyPath(of: type, options: []) { name, path in
            fields.append(Field(label: String(cString: name), path: path, in: type))
            return true
        }
        return complete ? .fields(fields) : .unsupported
    }
}
