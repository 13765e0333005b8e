import Notifications

/// What the tray item shows at one moment: the compact text as its label and the most
/// relevant live activity's card as its tooltip. Compared as a whole value so the item
/// announces exactly what changed.
package struct TrayState: Equatable, Sendable {
    /// The icon shown when nothing is live (freedesktop icon naming spec, Status context).
    static let defaultIconName = "appointment-soon"
    static let appTitle = "Live Activities"

    /// Whether some activity is live (`Active`), else `Passive`.
    var isLive: Bool
    /// The card title of the most relevant live activity.
    var cardTitle: String
    /// The card body of the most relevant live activity.
    var cardBody: String
    var iconName: String
    /// The compact text (`CompactText`).
    var label: String
    /// The menu's rows: each live activity, most relevant first.
    var menu: [TrayMenuSection] = []

    package init(isLive: Bool, cardTitle: String, cardBody: String, iconName: String, label: String,
                 menu: [TrayMenuSection] = []) {
        self.isLive = isLive
        self.cardTitle = cardTitle
        self.cardBody = cardBody
        self.iconName = iconName
        self.label = label
        self.menu = menu
    }

    /// Nothing live: a passive item with an empty label.
    package static let idle = TrayState(isLive: false, cardTitle: "", cardBody: "", iconName: defaultIconName, label: "")

    /// `Status`: `Active` while something is live, `Passive` otherwise.
    var status: String { isLive ? "Active" : "Passive" }

    /// `Title`: the compact text while something is live (Plasma's `statusnotifieritem` data
    /// engine follows it, so the Plasma applet shows it without polling), else the app's name.
    var title: String { isLive && !label.isEmpty ? label : Self.appTitle }

    /// `ToolTip` as `(icon name, icon pixmaps, title, body)`. The StatusNotifierItem spec
    /// lets hosts read tooltip text as markup (an XML subset with `<img>` and `<a>`), and Qt
    /// hosts guess rich text from the text itself, so client text is escaped: `<img src=…>` in
    /// a title shows as those characters, never as a picture a host fetches.
    var toolTip: (iconName: String, title: String, body: String) {
        isLive ? (iconName, CardText.escapeMarkup(cardTitle), CardText.escapeMarkup(cardBody))
            : (iconName, Self.appTitle, "Nothing live")
    }

    /// `XAyatanaLabelGuide`: the label with every digit as 0, so a host that sizes the label
    /// by its guide keeps the same width while a timer ticks.
    var labelGuide: String {
        String(label.map { $0.isNumber && $0.isASCII ? "0" : $0 })
    }
}
