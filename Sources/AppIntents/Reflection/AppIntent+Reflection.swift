/// What hosts need to drive an intent without knowing its concrete type.
extension AppIntent {
    /// This intent's parameters in declaration order, named by their property names.
    ///
    /// The parameters are this instance's live wrappers: assigning to them sets this intent's
    /// values. Copies of the intent share them, so use a fresh `Self()` per resolution.
    ///
    /// The stored properties are listed once per type (see `StoredFields`); each call reads this instance's
    /// parameter wrappers at their offsets, its other properties through their key paths (a property of another
    /// type may still hold a parameter), or everything through `Mirror` for types listing cannot handle.
    public func parameters() -> [(name: String, parameter: any AnyIntentParameter)] {
        guard let fields = StoredFields.of(Self.self) else {
            return Mirror(reflecting: self).children.compactMap { child in
                guard let parameter = child.value as? any AnyIntentParameter, let label = child.label else {
                    return nil
                }
                return (Self.parameterName(label), parameter)
            }
        }
        var parameters: [(name: String, parameter: any AnyIntentParameter)] = []
        parameters.reserveCapacity(fields.count)
        withUnsafeBytes(of: self) { instance in
            for field in fields {
                if let reader = field.parameter, let base = instance.baseAddress {
                    parameters.append((field.wrappedName, reader.load(base)))
                } else if let parameter = self[keyPath: field.path] as? any AnyIntentParameter {
                    parameters.append((field.wrappedName, parameter))
                }
            }
        }
        return parameters
    }

    /// The backing storage of `@Parameter var project` is named `_project`.
    private static func parameterName(_ label: String) -> String {
        label.hasPrefix("_") ? String(label.dropFirst()) : label
    }

    /// The parameter whose property name is `name`, if any.
    public func parameter(named name: String) -> (any AnyIntentParameter)? {
        parameters().first { $0.name == name }?.parameter
    }

    /// The parameters of a fresh `Self()`, as declared, in declaration order.
    public static var parameterDeclarations: [IntentParameterDeclaration] {
        Self().parameters().map { IntentParameterDeclaration(name: $0.name, parameter: $0.parameter) }
    }

    /// The resolved ``AppIntent/title``.
    public static var intentTitle: String { title.defaultValue }

    /// The resolved ``AppIntent/description`` text, or `nil` when it is empty.
    public static var intentDescriptionText: String? {
        let text = description.descriptionText.defaultValue
        return text.isEmpty ? nil : text
    }
}
