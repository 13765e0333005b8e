import CNotify

/// Keeps GLib's GVariant type information for the card's messages alive for the daemon's life.
///
/// GLib (2.74, Debian 12's) frees a container type's information when the last GVariant of
/// that type goes, and its whole table when it is empty (`gvarianttypeinfo.c`,
/// `g_variant_type_info_unref`). Between two ticks no GVariant is left, so every routine
/// replace built the table and the infos of its arguments, of the message header's fields and
/// of the server's answer again, and freed them after: about 3 % of a tick's instructions
/// (issue 29, docs/benchmarks.md). One value of each type, never released, holds them (with
/// the types inside them: `as`, `a{sv}`, `{sv}`, `{yv}`).
enum VariantTypeInfoCache {
    /// Notify's arguments (`RoutineReplace.arguments` builds them; a test holds the two
    /// together), GDBus's header fields, and Notify's answer.
    static let heldTypes = ["(susssasa{sv}i)", "a{yv}", "(u)"]

    /// Made once (a static's lazy, thread-safe initialisation): an empty value of each type,
    /// which GLib reads as that type's default.
    private static let held: Void = {
        for typeString in heldTypes {
            let type = g_variant_type_new(typeString)
            _ = g_variant_ref_sink(g_variant_new_from_data(type, nil, 0, la_g_false, nil, nil))  // never released
            g_variant_type_free(type)
        }
    }()

    /// Makes sure the values are held; the card thread calls it as it starts.
    static func hold() {
        held
    }

    /// Whether `value`'s type is one held here.
    static func holds(typeOf value: OpaquePointer?) -> Bool {
        guard let value, let typeString = g_variant_get_type_string(value) else { return false }
        return heldTypes.contains(String(cString: typeString))
    }
}
