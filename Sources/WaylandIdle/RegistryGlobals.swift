import CWayland

/// The globals the compositor announces that an idle client needs (the first of each), as
/// the registry's `global` events bring them.
final class RegistryGlobals {
    var extIdleNotifier: UInt32?
    var kdeIdle: UInt32?
    var seat: UInt32?
    /// The listener the registry calls, at an address that stays put while the registry lives.
    let listener: UnsafeMutablePointer<wl_registry_listener>

    init() {
        listener = .allocate(capacity: 1)
        listener.initialize(to: wl_registry_listener(global: registryGlobal, global_remove: registryGlobalRemove))
    }

    deinit {
        listener.deinitialize(count: 1)
        listener.deallocate()
    }

    fileprivate func announced(name: UInt32, interface: String) {
        switch interface {
        case "ext_idle_notifier_v1": extIdleNotifier = extIdleNotifier ?? name
        case "org_kde_kwin_idle": kdeIdle = kdeIdle ?? name
        case "wl_seat": seat = seat ?? name
        default: break
        }
    }
}

private func registryGlobal(_ data: UnsafeMutableRawPointer?, _ registry: OpaquePointer?, _ name: UInt32,
                            _ interface: UnsafePointer<CChar>?, _ version: UInt32) {
    guard let data, let interface else { return }
    Unmanaged<RegistryGlobals>.fromOpaque(data).takeUnretainedValue().announced(name: name, interface: String(cString: interface))
}

private func registryGlobalRemove(_ data: UnsafeMutableRawPointer?, _ registry: OpaquePointer?, _ name: UInt32) {}
