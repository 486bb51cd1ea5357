import AppIntents
import Foundation
import JSON
import WidgetHost

extension V1 {
    /// `GET /v1/kinds`.
    struct KindList: Encodable {
        var kinds: [Kind]
    }

    /// One widget kind: what a host can place, and the parameters its configuration intent declares.
    struct Kind: Encodable {
        var kind: String
        var displayName: String
        var description: String
        var families: [String]
        var intentType: String?
        var parameters: [Parameter]

        init(_ descriptor: WidgetKindDescriptor) {
            kind = descriptor.kind
            displayName = descriptor.displayName
            description = descriptor.description
            families = descriptor.supportedFamilies.map(\.rawValue)
            intentType = descriptor.intentTypeName
            parameters = descriptor.parameters.map(Parameter.init)
        }
    }

    /// One parameter of a configuration intent.
    struct Parameter: Encodable {
        /// `bool`, `int`, `double`, `string`, `date`, `url`, `enum` or `entity`.
        var type: String
        var name: String
        var title: String
        var description: String?
        var optional: Bool
        /// The `default:` value in its JSON form (what a host would send).
        var `default`: JSONValue?
        /// For `entity` parameters: the entity type's name.
        var entityType: String?
        /// For `enum` parameters: the enum type's name and its cases.
        var enumType: String?
        var cases: [EnumCase]?
        /// Whether `GET .../options` lists choices for it (entities and enums).
        var hasOptions: Bool

        init(_ declaration: IntentParameterDeclaration) {
            name = declaration.name
            title = declaration.title
            description = declaration.descriptionText
            optional = declaration.isOptional
            `default` = declaration.defaultValue.map(Self.json)
            hasOptions = false
            switch declaration.kind {
            case .bool: type = "bool"
            case .int: type = "int"
            case .double: type = "double"
            case .string: type = "string"
            case .date: type = "date"
            case .url: type = "url"
            case .enumeration(let enumeration):
                type = "enum"
                enumType = enumeration.typeName
                cases = enumeration.cases.map { EnumCase(value: $0.rawValue, title: $0.title) }
                hasOptions = true
            case .entity(let typeName):
                type = "entity"
                entityType = typeName
                hasOptions = true
            }
        }

        /// A parameter value as a host sends it: entities by id, enum cases by raw value, dates as ISO 8601.
        static func json(_ value: IntentParameterValue) -> JSONValue {
            switch value {
            case .bool(let value): .bool(value)
            case .int(let value): .int(value)
            case .double(let value): .double(value)
            case .string(let value): .string(value)
            case .date(let date): .string(date.formatted(Date.ISO8601FormatStyle()))
            case .url(let url): .string(url.absoluteString)
            case .enumCase(let raw): .string(raw)
            case .entity(let id): .string(id)
            case .null: .null
            }
        }
    }

    /// One case of an enum parameter.
    struct EnumCase: Encodable {
        var value: String
        var title: String
    }

    /// `GET /v1/kinds/{kind}/parameters/{name}/options`.
    struct OptionList: Encodable {
        var options: [Option]
    }

    /// A choice for a parameter: the value to send back, and how to show it.
    struct Option: Encodable {
        var value: JSONValue
        var title: String
        var subtitle: String?

        init(_ option: ParameterOption) {
            value = option.value
            title = option.title
            subtitle = option.subtitle
        }
    }
}
