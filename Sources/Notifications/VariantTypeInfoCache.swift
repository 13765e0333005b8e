import CNotify

/// Keeps GLib's GVariant type information for the card's messages alive for the daemon's life.
///
/// GLib (2.74, Debian 12's) frees a container type's information when the last GVariant of
/// that type goes, and its whole table when it is empty (`gvarianttypeinfo.c`,
/// `g_variant_type_info_unref`). Between two ticks no GVariant is left, so every routine
/// replace built the table and the infos of `(susssasa{sv}i)`, `as`, `a{sv}`, `{sv}`, the
/// header's `a{yv}` and `{yv}` and the answer's `(u)` again, and freed them after: about 3 %
/// of a tick's instructions (issue 29, docs/benchmarks.md). One value of each type, never
/// released, holds them.
enum VariantTypeInfoCache {
    /// Made once (a static's lazy, thread-safe initialisation).
    private static let held: Void = {
        let hint = g_variant_new_dict_entry(g_variant_new_string(""), g_variant_new_variant(g_variant_new_int32(0)))
        let notifyArguments: [OpaquePointer?] = [
            g_variant_new_string(""), g_variant_new_uint32(0), g_variant_new_string(""), g_variant_new_string(""),
            g_variant_new_string(""), g_variant_new_strv(nil, 0), g_variant_new_array(nil, [hint], 1), g_variant_new_int32(0),
        ]
        let headerField = g_variant_new_dict_entry(g_variant_new_byte(0), g_variant_new_variant(g_variant_new_byte(0)))
        for value in [g_variant_new_tuple(notifyArguments, gsize(notifyArguments.count)),
                      g_variant_new_array(nil, [headerField], 1),
                      g_variant_new_tuple([g_variant_new_uint32(0)], 1)] {
            _ = g_variant_ref_sink(value)  // never unreferenced: held for the process's life
        }
    }()

    /// Makes sure the values are held; the card thread calls it as it starts.
    static func hold() {
        held
    }
}
