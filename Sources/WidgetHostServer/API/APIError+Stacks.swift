import HTTPServer
import WidgetHost

extension APIError.Code {
    /// 404: no Smart Stack with this id (`detail.stack`).
    public static let unknownStack: Self = "unknown_stack"
    /// 409: a Smart Stack with this id already exists (`detail.stack`).
    public static let duplicateStack: Self = "duplicate_stack"
    /// 422: an instance is listed twice, or is already in the stack (`detail.stack`, `detail.instance`).
    public static let alreadyInStack: Self = "already_in_stack"
    /// 422: the instance is not in the stack (`detail.stack`, `detail.instance`).
    public static let notInStack: Self = "not_in_stack"
}

extension APIError {
    /// The API's answer to a refused stack operation: 404 `unknown_stack`, 409 `duplicate_stack`, 400
    /// `invalid_field` (empty id), 422 `already_in_stack` / `not_in_stack`.
    public init(_ error: SmartStackError) {
        let message = error.description
        switch error {
        case .unknownStack(let id):
            self.init(.unknownStack, status: .notFound, message: message, detail: ["stack": .string(id)])
        case .duplicateStack(let id):
            self.init(.duplicateStack, status: .conflict, message: message, detail: ["stack": .string(id)])
        case .emptyName:
            self = .invalidField("id", message)
        case .alreadyInStack(let stack, let instance):
            self.init(.alreadyInStack, status: .unprocessableContent, message: message,
                      detail: ["stack": .string(stack), "instance": .string(instance)])
        case .notInStack(let stack, let instance):
            self.init(.notInStack, status: .unprocessableContent, message: message,
                      detail: ["stack": .string(stack), "instance": .string(instance)])
        }
    }
}
