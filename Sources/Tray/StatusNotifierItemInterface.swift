import DBus

/// `org.kde.StatusNotifierItem` (with the Ayatana label extension) as a table. Hosts read the
/// properties after the item's own change signals, not PropertiesChanged, so the changing
/// properties are declared as emitting none. The methods are accepted and do nothing: the
/// item has no window to raise, and hosts open its menu (`Menu`, a dbusmenu object) themselves.
package enum StatusNotifierItemInterface {
    static let name = "org.kde.StatusNotifierItem"

    static func make(_ item: StatusNotifierItem) -> DBusInterface {
        let position = [DBusArgument("x", "i"), DBusArgument("y", "i")]
        let noPixmaps = DBusValue.array(elementSignature: "(iiay)", [])
        func text(_ name: String, emitsChange: DBusProperty.EmitsChange = .no, _ read: @escaping (TrayState) -> String) -> DBusProperty {
            DBusProperty(name, "s", emitsChange: emitsChange, get: { .string(read(item.state)) })
        }
        return DBusInterface(
            name: name,
            methods: [
                DBusMethod("Activate", inputs: position) { _ throws(DBusError) in [] },
                DBusMethod("SecondaryActivate", inputs: position) { _ throws(DBusError) in [] },
                DBusMethod("ContextMenu", inputs: position) { _ throws(DBusError) in [] },
                DBusMethod("Scroll", inputs: [DBusArgument("delta", "i"), DBusArgument("orientation", "s")]) { _ throws(DBusError) in [] },
            ],
            properties: [
                text("Category", emitsChange: .const) { _ in "ApplicationStatus" },
                text("Id", emitsChange: .const) { _ in "liveactivities" },
                text("Title") { $0.title },
                text("Status") { $0.status },
                DBusProperty("WindowId", "i", emitsChange: .const, get: { .int32(0) }),
                text("IconThemePath", emitsChange: .const) { _ in "" },
                text("IconName") { $0.iconName },
                DBusProperty("IconPixmap", "a(iiay)", emitsChange: .const, get: { noPixmaps }),
                text("OverlayIconName", emitsChange: .const) { _ in "" },
                DBusProperty("OverlayIconPixmap", "a(iiay)", emitsChange: .const, get: { noPixmaps }),
                text("AttentionIconName", emitsChange: .const) { _ in "" },
                DBusProperty("AttentionIconPixmap", "a(iiay)", emitsChange: .const, get: { noPixmaps }),
                text("AttentionMovieName", emitsChange: .const) { _ in "" },
                DBusProperty("ToolTip", "(sa(iiay)ss)", emitsChange: .no, get: {
                    let tip = item.state.toolTip
                    return .structure([.string(tip.iconName), noPixmaps, .string(tip.title), .string(tip.body)])
                }),
                DBusProperty("ItemIsMenu", "b", emitsChange: .const, get: { .boolean(false) }),
                DBusProperty("Menu", "o", emitsChange: .const, get: { .objectPath(TrayMenu.path) }),
                text("XAyatanaLabel") { $0.label },
                text("XAyatanaLabelGuide") { $0.labelGuide },
                DBusProperty("XAyatanaOrderingIndex", "u", emitsChange: .const, get: { .uint32(0) }),
            ],
            signals: [
                DBusSignal("NewTitle"),
                DBusSignal("NewIcon"),
                DBusSignal("NewAttentionIcon"),
                DBusSignal("NewOverlayIcon"),
                DBusSignal("NewToolTip"),
                DBusSignal("NewStatus", [DBusArgument("status", "s")]),
                DBusSignal("XAyatanaNewLabel", [DBusArgument("label", "s"), DBusArgument("guide", "s")]),
            ])
    }
}
