/// Introspection XML derived from the interface tables; deterministic (declared order, then
/// the standard interfaces, then child nodes sorted) so it can be compared with a shipped file.
extension DBusObjectServer {
    /// The `Introspect` answer for `path`.
    public func introspectionXML(path: String) -> String {
        var xml = """
        <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
         "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
        <node>\n
        """
        if isKnownPath(path) {
            for table in allInterfaces(at: path) { xml += IntrospectionXML.interface(table) }
        }
        for child in childNodes(of: path) {
            xml += "  <node name=\"\(IntrospectionXML.escaped(child))\"/>\n"
        }
        return xml + "</node>\n"
    }
}

/// The XML writer for one interface table.
enum IntrospectionXML {
    static func interface(_ table: DBusInterface) -> String {
        var xml = "  <interface name=\"\(escaped(table.name))\">\n"
        for method in table.methods {
            let arguments = method.inputs.map { argument($0, direction: "in") }
                + method.outputs.map { argument($0, direction: "out") }
            xml += element("method", name: method.name, children: arguments)
        }
        for signal in table.signals {
            xml += element("signal", name: signal.name, children: signal.arguments.map { argument($0, direction: nil) })
        }
        for property in table.properties {
            let access = property.access == .readwrite ? "readwrite" : "read"
            let opening = "    <property name=\"\(escaped(property.name))\" type=\"\(escaped(property.signature))\" "
                + "access=\"\(access)\""
            if property.emitsChange == .yes {
                xml += opening + "/>\n"
            } else {
                xml += opening + ">\n"
                xml += "      <annotation name=\"org.freedesktop.DBus.Property.EmitsChangedSignal\" "
                    + "value=\"\(property.emitsChange.annotationValue)\"/>\n"
                xml += "    </property>\n"
            }
        }
        return xml + "  </interface>\n"
    }

    private static func element(_ tag: String, name: String, children: [String]) -> String {
        let opening = "    <\(tag) name=\"\(escaped(name))\""
        guard !children.isEmpty else { return opening + "/>\n" }
        return opening + ">\n" + children.joined() + "    </\(tag)>\n"
    }

    private static func argument(_ argument: DBusArgument, direction: String?) -> String {
        var xml = "      <arg"
        if !argument.name.isEmpty { xml += " name=\"\(escaped(argument.name))\"" }
        xml += " type=\"\(escaped(argument.signature))\""
        if let direction { xml += " direction=\"\(direction)\"" }
        return xml + "/>\n"
    }

    /// Escapes text for an XML attribute value.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            default: result.append(character)
            }
        }
        return result
    }
}
