import DBus
import LiveActivitiesContract

/// `liveactivity list`: every activity with every property in one `GetManagedObjects` call, most
/// relevant first as `List` orders them (relevance, then the newest, then the id). One call and
/// one process, so a panel that reads the rows (the Plasma 5.27 applet) no longer starts a
/// `get` per activity nor makes 1 + N calls (issue 30). Keys are `Get`'s kebab-case ones.
enum ActivityListing {
    static func read(_ client: BusClient) throws(CLIError) -> [[String: DBusValue]] {
        let reply = try client.call("GetManagedObjects", interface: "org.freedesktop.DBus.ObjectManager")
        guard case .dictionary(_, _, let objects)? = reply.first else { return [] }
        let activities: [[String: DBusValue]] = objects.compactMap { entry in
            guard case .dictionary(_, _, let interfaces) = entry.value.unwrapped,
                  let properties = interfaces.first(where: { $0.key.string == BusNames.activityInterface })?.value
                    .unwrapped.vardict else { return nil }
            var keyed: [String: DBusValue] = [:]
            for (name, value) in properties { keyed[kebab(name)] = value.unwrapped }
            return keyed
        }
        return activities.sorted { lhs, rhs in
            let relevance = (lhs["relevance"]?.double ?? 0, rhs["relevance"]?.double ?? 0)
            if relevance.0 != relevance.1 { return relevance.0 > relevance.1 }
            let started = (lhs["started-at"]?.integer ?? 0, rhs["started-at"]?.integer ?? 0)
            if started.0 != started.1 { return started.0 > started.1 }
            return (lhs["id"]?.string ?? "") < (rhs["id"]?.string ?? "")
        }
    }

    /// `CompactLeading` → `compact-leading`: the bus's property names as `Get`'s keys.
    static func kebab(_ name: String) -> String {
        var result = ""
        for character in name {
            if character.isUppercase, !result.isEmpty { result.append("-") }
            result.append(contentsOf: character.lowercased())
        }
        return result
    }
}
