import DBus
import Glibc
import ServiceSupport

/// The compact view in the system tray: a StatusNotifierItem on the daemon's own connection,
/// under its own name `org.kde.StatusNotifierItem-<pid>-1`. Its label (GNOME's AppIndicator
/// extension shows it beside the icon) is the compact text and its tooltip the most relevant
/// card. It registers with `org.kde.StatusNotifierWatcher` when one exists and again whenever
/// one appears; without a watcher it waits quietly. Its menu (`TrayMenu`) lists the live
/// activities with their buttons. It lives on the event loop's thread and
/// never waits for the watcher: registration is sent without asking for a reply.
public final class StatusNotifierItem {
    static let watcherName = "org.kde.StatusNotifierWatcher"
    static let watcherPath = "/StatusNotifierWatcher"
    static let path = "/StatusNotifierItem"

    let connection: DBusConnection
    let server: DBusObjectServer
    /// The well-known name hosts reach the item by.
    let busName: String
    /// What the item shows now; the properties read it.
    private(set) var state: TrayState
    private var signalHandler: DBusConnection.HandlerToken?
    /// The item's menu (`Menu`): each live activity's rows and buttons.
    let menu: TrayMenu
    /// Whether a watcher owns its name: without one no host shows the item, so its change
    /// signals (several a second under a seconds countdown) are not sent; a host that comes
    /// later reads the item's current properties and menu.
    private(set) var watcherPresent = false
    /// Whether the label is to be announced again once the host that registration reached has
    /// set the item up (its first `GetLayout`). GNOME 48's AppIndicator extension (the
    /// version in Debian 13) does not show an `XAyatanaLabel` it read while setting the item
    /// up, drops an `XAyatanaNewLabel` that arrives during setup (with an error in the shell's
    /// log), and ignores one that repeats the text it already has. A label that does not
    /// change after registration (a paused timer) would never show there.
    private var labelAnnouncementDue = false

    package init(connection: DBusConnection, server: DBusObjectServer, state: TrayState, processID: Int32 = getpid(),
         onAction: @escaping (String, String) -> Void) {
        self.connection = connection
        self.server = server
        self.state = state
        menu = TrayMenu(server: server, sections: state.menu, onAction: onAction)
        busName = "org.kde.StatusNotifierItem-\(processID)-1"
        menu.onLayoutRead = { [weak self] in self?.hostIsSetUp() }
    }

    deinit {
        if let signalHandler { connection.removeMessageHandler(signalHandler) }
    }

    /// Exports the item, takes its name, follows the watcher's name and registers if a watcher is there.
    package func start() throws(DBusError) {
        try menu.export()
        try server.export(Self.path, [StatusNotifierItemInterface.make(self)])
        let reply = try connection.requestName(busName, flags: [.doNotQueue])
        guard reply == .primaryOwner || reply == .alreadyOwner else {
            throw .failed("the tray item name \(busName) is taken")
        }
        try connection.addMatch("type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
                                + "member='NameOwnerChanged',arg0='\(Self.watcherName)'")
        signalHandler = connection.addMessageHandler { [weak self] message in
            self?.watcherMayHaveChanged(message)
            return false
        }
        if (try? connection.nameHasOwner(Self.watcherName)) == true {
            watcherPresent = true
            register()
        } else {
            Log.info("no StatusNotifierWatcher on the bus yet; the tray item will register when one appears")
        }
    }

    /// Shows `new`, sending the change signal of each part that changed (and nothing else).
    package func update(_ new: TrayState) {
        let old = state
        guard new != old else { return }
        state = new
        menu.update(new.menu, announcing: watcherPresent)
        guard watcherPresent else { return }
        if new.title != old.title { emit("NewTitle") }
        if new.iconName != old.iconName { emit("NewIcon") }
        if new.toolTip != old.toolTip { emit("NewToolTip") }
        if new.status != old.status { emit("NewStatus", [.string(new.status)]) }
        if new.label != old.label || new.labelGuide != old.labelGuide {
            emit("XAyatanaNewLabel", [.string(new.label), .string(new.labelGuide)])
        }
        if new.status != old.status { announceStatusAndLabel() }
    }

    /// The status and label once more as a standard PropertiesChanged, after their own signals.
    /// GNOME 50's AppIndicator extension batches what those signals refresh and can drop the
    /// batch (a cancelled refresh cancels the batch's emission): then an item that went from
    /// Passive to Active stayed hidden with no label until its next status change (the
    /// `gnome50-panel` row, 2 of 6 runs). A PropertiesChanged reaches the indicator directly.
    private func announceStatusAndLabel() {
        let values: [String: DBusValue] = ["Status": .string(state.status), "XAyatanaLabel": .string(state.label),
                                           "XAyatanaLabelGuide": .string(state.labelGuide)]
        emit("PropertiesChanged", [.string(StatusNotifierItemInterface.name), .vardict(values), .array(elementSignature: "s", [])],
             interface: "org.freedesktop.DBus.Properties")
    }

    /// A (new) watcher took its name: register with it.
    private func watcherMayHaveChanged(_ message: DBusMessage) {
        guard message.kind == .signal, message.member == "NameOwnerChanged", message.sender == "org.freedesktop.DBus",
              let arguments = try? message.arguments(), arguments.count == 3,
              arguments[0].string == Self.watcherName, let newOwner = arguments[2].string else { return }
        watcherPresent = !newOwner.isEmpty
        if watcherPresent { register() }
    }

    /// A host read the menu, so it has set the item up: the label goes out once more as a
    /// standard PropertiesChanged, which the host's proxy passes on even when the text is the
    /// one it read (the label's own signal would be dropped as no change). Later label changes
    /// go out as `XAyatanaNewLabel` only.
    private func hostIsSetUp() {
        guard labelAnnouncementDue, watcherPresent else { return }
        labelAnnouncementDue = false
        announceStatusAndLabel()
    }

    /// `RegisterStatusNotifierItem(path)`, sent without waiting for (or wanting) a reply. The
    /// item is named by its object path (the watcher takes the sender's unique name with it), as
    /// libayatana-appindicator does, not by `busName`: for an item named by a well-known name,
    /// GNOME's AppIndicator extension (43 in Debian 12, `appIndicator.js`) also starts a
    /// `NameWatcher`, whose asynchronous "appeared" resets the item's `Id` and `Menu` when it
    /// comes after the proxy's `GetAll`; its re-read a second later then throws in
    /// `GLib.Variant.equal(null)` ("Argument two may not be null") and the item is destroyed
    /// (issue 28: 2 of 5 starts here). By path there is no such watcher and no race. KDE's watchers
    /// (kded5, kded6) take this form too (checked by the plasma rows); the SNI spec allows both.
    private func register() {
        labelAnnouncementDue = true
        do {
            let call = try DBusMessage.methodCall(destination: Self.watcherName, path: Self.watcherPath,
                                                  interface: Self.watcherName, member: "RegisterStatusNotifierItem")
            try call.append([.string(Self.path)])
            call.noReplyExpected = true
            connection.send(call)
        } catch {
            Log.error("cannot register the tray item: \(error.message)")
        }
    }

    private func emit(_ signal: String, _ arguments: [DBusValue] = [], interface: String = StatusNotifierItemInterface.name) {
        do {
            try server.emit(path: Self.path, interface: interface, signal: signal, arguments)
        } catch {
            Log.error("cannot emit \(signal): \(error.message)")
        }
    }
}
