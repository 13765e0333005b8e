/// Serves objects on a connection from interface tables: routes method calls, checks
/// argument signatures, and answers the standard interfaces (Introspectable, Properties,
/// Peer, ObjectManager) for every exported object.
///
/// It answers every method call that reaches its handler (with UnknownObject and the like
/// when nothing matches), so other method-call handlers must be added to the connection first.
public final class DBusObjectServer {
    let connection: DBusConnection
    /// The declared interfaces of each exported path, in declared order.
    var objects: [String: [DBusInterface]] = [:]
    /// Paths where org.freedesktop.DBus.ObjectManager is served.
    var managerPaths: Set<String> = []
    private var handlerToken: DBusConnection.HandlerToken?
    /// Wraps the reads of one ObjectManager report (GetManagedObjects), so the owner of the
    /// objects can serve them all from one moment (one clock reading, one render each).
    public var readScope: ((_ reads: () -> Void) -> Void)?

    /// Installs the server as a message handler of `connection`.
    public init(connection: DBusConnection) {
        self.connection = connection
        handlerToken = connection.addMessageHandler { [weak self] message in
            self?.handle(message) ?? false
        }
    }

    deinit {
        if let handlerToken { connection.removeMessageHandler(handlerToken) }
    }

    /// Exports an object at `path` with `interfaces` (the standard ones are added);
    /// announces it with InterfacesAdded under any enabled object manager.
    public func export(_ path: String, _ interfaces: [DBusInterface]) throws(DBusError) {
        guard CString.isValidObjectPath(path) else { throw .invalidArgs("invalid object path \"\(path)\"") }
        guard objects[path] == nil else { throw .objectPathInUse("an object is already exported at \(path)") }
        var names = Set<String>()
        for interface in interfaces {
            try interface.validate()
            guard !StandardInterfaceName.all.contains(interface.name) else {
                throw .invalidArgs("\(interface.name) is provided by the object server")
            }
            guard names.insert(interface.name).inserted else {
                throw .invalidArgs("interface \(interface.name) given twice for \(path)")
            }
        }
        objects[path] = interfaces
        announceAdded(path)
    }

    /// Removes the object at `path`; announces it with InterfacesRemoved under any object manager.
    public func unexport(_ path: String) {
        guard objects[path] != nil else { return }
        announceRemoved(path)
        objects[path] = nil
    }

    /// Serves org.freedesktop.DBus.ObjectManager at `path` for the objects below it.
    public func enableObjectManager(at path: String) {
        guard CString.isValidObjectPath(path) else { return }
        managerPaths.insert(path)
    }

    /// Whether an object is exported at `path`.
    public func isExported(_ path: String) -> Bool { objects[path] != nil }

    /// Whether something answers at `path`: an object, an object manager, or a node above one.
    func isKnownPath(_ path: String) -> Bool {
        objects[path] != nil || managerPaths.contains(path) || !childNodes(of: path).isEmpty
    }

    /// The names of the nodes directly below `path`, sorted.
    func childNodes(of path: String) -> [String] {
        let prefix = path == "/" ? "/" : path + "/"
        var children = Set<String>()
        for candidate in Set(objects.keys).union(managerPaths) where candidate.hasPrefix(prefix) && candidate != path {
            if let first = candidate.dropFirst(prefix.count).split(separator: "/").first {
                children.insert(String(first))
            }
        }
        return children.sorted()
    }

    /// Whether `path` lies strictly below `ancestor`.
    static func isDescendant(_ path: String, of ancestor: String) -> Bool {
        ancestor == "/" ? path != "/" : path.hasPrefix(ancestor + "/")
    }

    /// Answers a method call (always, once it is one); other messages pass on.
    private func handle(_ message: DBusMessage) -> Bool {
        guard message.kind == .methodCall, let path = message.path, let member = message.member else { return false }
        if message.noReplyExpected {
            _ = try? dispatch(message, path: path, member: member)
        } else {
            connection.send(reply(to: message, path: path, member: member))
        }
        return true
    }

    /// The method return carrying the handler's outputs, or the error reply.
    private func reply(to message: DBusMessage, path: String, member: String) -> DBusMessage {
        let outputs: [DBusValue]
        do {
            outputs = try dispatch(message, path: path, member: member)
        } catch {
            return DBusMessage.error(replyingTo: message, error)
        }
        let reply = DBusMessage.methodReturn(replyingTo: message)
        do {
            try reply.append(outputs)
        } catch {
            return DBusMessage.error(replyingTo: message,
                                     .failed("the reply of \(member) could not be sent: \(error.message)"))
        }
        return reply
    }

    /// Finds the method, checks the arguments, runs the handler and checks its outputs.
    private func dispatch(_ message: DBusMessage, path: String, member: String) throws(DBusError) -> [DBusValue] {
        let method = try findMethod(path: path, interface: message.interface, member: member)
        let signature = message.signature
        guard signature == method.inputSignature else {
            throw .invalidArgs("\(member) expects arguments (\(method.inputSignature)), got (\(signature))")
        }
        let arguments: [DBusValue]
        do {
            arguments = try message.arguments()
        } catch {
            throw .invalidArgs("\(member): \(error.message)")
        }
        let call = DBusMethodCall(message: message, arguments: arguments, sender: message.sender, path: path)
        let outputs = try method.handler(call)
        guard outputs.dbusSignature == method.outputSignature else {
            throw .failed("\(member) returned (\(outputs.dbusSignature)) but declares (\(method.outputSignature))")
        }
        return outputs
    }

    /// The method `member` at `path`, in `interface` or (without one) in any interface.
    private func findMethod(path: String, interface: String?, member: String) throws(DBusError) -> DBusMethod {
        guard isKnownPath(path) else { throw .unknownObject("no object at path \(path)") }
        let declared = objects[path] ?? []
        let isObject = objects[path] != nil || managerPaths.contains(path)
        if let interface {
            let table = declared.first { $0.name == interface } ?? standardInterface(interface, at: path)
            guard let table else {
                // A node that only leads to objects below it is not an object of its own.
                guard isObject else { throw .unknownObject("no object at path \(path)") }
                throw .unknownInterface("object \(path) has no interface \(interface)")
            }
            guard let method = table.method(named: member) else {
                throw .unknownMethod("interface \(interface) has no method \(member)")
            }
            return method
        }
        for table in declared {
            if let method = table.method(named: member) { return method }
        }
        for table in standardInterfaces(at: path) {
            if let method = table.method(named: member) { return method }
        }
        guard isObject else { throw .unknownObject("no object at path \(path)") }
        throw .unknownMethod("object \(path) has no method \(member)")
    }

    /// The interfaces at `path` in introspection order: declared ones, then the standard ones.
    func allInterfaces(at path: String) -> [DBusInterface] {
        (objects[path] ?? []) + standardInterfaces(at: path)
    }
}
