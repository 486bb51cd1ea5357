import Foundation
import SharedState

extension WidgetEngine {
    /// Creates a stack of placed instances, in the given order.
    /// - Throws: ``SmartStackError`` (empty or taken name, an instance listed twice), or
    ///   ``EngineError/unknownInstance(_:)``; nothing is stored then.
    @discardableResult
    public func createStack(_ id: String, instanceIDs: [String] = []) throws -> SmartStack {
        guard !id.isEmpty else { throw SmartStackError.emptyName }
        let now = clock.now
        try store.write { db in
            guard try Self.stackExists(id, db) == false else { throw SmartStackError.duplicateStack(id) }
            try db.execute("INSERT INTO smart_stacks(id, created_at) VALUES (?, ?)", [.text(id), now.sqlValue])
            for instanceID in instanceIDs { try addMember(instanceID, to: id, db) }
        }
        return try stack(id)
    }

    /// The stack named `id`.
    /// - Throws: ``SmartStackError/unknownStack(_:)``.
    public func stack(_ id: String) throws -> SmartStack {
        try store.read { db in try Self.stack(id, db) }
    }

    /// Every stack, by name.
    public func stacks() throws -> [SmartStack] {
        try store.read { db in
            try db.query("SELECT id FROM smart_stacks ORDER BY id").compactMap { $0.string("id") }
                .map { try Self.stack($0, db) }
        }
    }

    /// Deletes a stack (its instances stay placed).
    /// - Throws: ``SmartStackError/unknownStack(_:)``.
    public func deleteStack(_ id: String) throws {
        try store.write { db in
            guard try Self.stackExists(id, db) else { throw SmartStackError.unknownStack(id) }
            try db.execute("DELETE FROM smart_stack_members WHERE stack_id = ?", [.text(id)])
            try db.execute("DELETE FROM smart_stack_rotation WHERE stack_id = ?", [.text(id)])
            try db.execute("DELETE FROM smart_stacks WHERE id = ?", [.text(id)])
        }
    }

    /// Replaces a stack's instances with `instanceIDs`, in that order, keeping its name and creation date. The
    /// stored top stays when it is still in the stack; otherwise the next ranking picks a new top at once.
    /// - Throws: ``SmartStackError`` (unknown stack, an instance listed twice) or
    ///   ``EngineError/unknownInstance(_:)``; nothing is changed then.
    @discardableResult
    public func replaceStack(_ id: String, instanceIDs: [String]) throws -> SmartStack {
        try store.write { db in
            guard try Self.stackExists(id, db) else { throw SmartStackError.unknownStack(id) }
            try db.execute("DELETE FROM smart_stack_members WHERE stack_id = ?", [.text(id)])
            for instanceID in instanceIDs { try addMember(instanceID, to: id, db) }
            try db.execute("""
                DELETE FROM smart_stack_rotation WHERE stack_id = ?
                AND top_instance_id NOT IN (SELECT instance_id FROM smart_stack_members WHERE stack_id = ?)
                """, [.text(id), .text(id)])
        }
        return try stack(id)
    }

    /// Adds a placed instance at the end of a stack.
    /// - Throws: ``SmartStackError`` or ``EngineError/unknownInstance(_:)``.
    @discardableResult
    public func addToStack(_ id: String, instanceID: String) throws -> SmartStack {
        try store.write { db in
            guard try Self.stackExists(id, db) else { throw SmartStackError.unknownStack(id) }
            try addMember(instanceID, to: id, db)
        }
        return try stack(id)
    }

    /// Removes an instance from a stack; when it was on top, the next ranking picks a new top at once.
    /// - Throws: ``SmartStackError``.
    @discardableResult
    public func removeFromStack(_ id: String, instanceID: String) throws -> SmartStack {
        try store.write { db in
            guard try Self.stackExists(id, db) else { throw SmartStackError.unknownStack(id) }
            try db.execute("DELETE FROM smart_stack_members WHERE stack_id = ? AND instance_id = ?",
                           [.text(id), .text(instanceID)])
            guard db.changes == 1 else { throw SmartStackError.notInStack(stack: id, instance: instanceID) }
            try db.execute("DELETE FROM smart_stack_rotation WHERE stack_id = ? AND top_instance_id = ?",
                           [.text(id), .text(instanceID)])
        }
        return try stack(id)
    }

    private func addMember(_ instanceID: String, to stackID: String, _ db: Database) throws {
        guard try store.instance(id: instanceID, db) != nil else { throw EngineError.unknownInstance(instanceID) }
        let position = try db.scalar("SELECT COALESCE(MAX(position) + 1, 0) FROM smart_stack_members WHERE stack_id = ?",
                                     [.text(stackID)], as: Int.self) ?? 0
        let exists = try db.scalar("SELECT count(*) FROM smart_stack_members WHERE stack_id = ? AND instance_id = ?",
                                   [.text(stackID), .text(instanceID)], as: Int.self) ?? 0
        guard exists == 0 else { throw SmartStackError.alreadyInStack(stack: stackID, instance: instanceID) }
        try db.execute("INSERT INTO smart_stack_members(stack_id, instance_id, position) VALUES (?, ?, ?)",
                       [.text(stackID), .text(instanceID), .integer(Int64(position))])
    }

    static func stackExists(_ id: String, _ db: Database) throws -> Bool {
        (try db.scalar("SELECT count(*) FROM smart_stacks WHERE id = ?", [.text(id)], as: Int.self) ?? 0) > 0
    }

    static func stack(_ id: String, _ db: Database) throws -> SmartStack {
        guard let created = try db.scalar("SELECT created_at FROM smart_stacks WHERE id = ?", [.text(id)],
                                          as: Date.self) else { throw SmartStackError.unknownStack(id) }
        // Members whose instance was removed from the engine drop out here.
        let members = try db.query("""
            SELECT m.instance_id FROM smart_stack_members m JOIN widget_instances i ON i.id = m.instance_id
            WHERE m.stack_id = ? ORDER BY m.position
            """, [.text(id)]).compactMap { $0.string("instance_id") }
        return SmartStack(id: id, instanceIDs: members, createdAt: created)
    }
}
