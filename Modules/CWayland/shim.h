#ifndef LIVEACTIVITIES_CWAYLAND_SHIM_H
#define LIVEACTIVITIES_CWAYLAND_SHIM_H
// libwayland-client, and the two idle protocols the daemon speaks, written out by hand (the
// tables wayland-scanner would generate, kept static so only this module sees them):
// - ext-idle-notify-v1 (wayland-protocols, staging/ext-idle-notify/ext-idle-notify-v1.xml,
//   version 1): KWin 6, sway 1.8+, Hyprland, niri, labwc;
// - org_kde_kwin_idle (plasma-wayland-protocols, src/protocols/idle.xml, version 1): the
//   older protocol of KWin 5 and wlroots up to 0.16 (sway 1.7, Debian 12).
// wl_proxy_marshal_flags is variadic, so each request is wrapped here once.
#include <stddef.h>
#include <stdint.h>
#include <wayland-client.h>

static const struct wl_interface la_ext_idle_notification_v1_interface;
static const struct wl_interface la_kde_idle_timeout_interface;

/// Argument types, wayland-scanner's layout: one slot per argument of each message.
static const struct wl_interface *la_idle_types[] = {
    NULL,
    // ext_idle_notifier_v1.get_idle_notification(new_id, uint timeout, object wl_seat)
    &la_ext_idle_notification_v1_interface, NULL, &wl_seat_interface,
    // org_kde_kwin_idle.get_idle_timeout(new_id, object wl_seat, uint timeout)
    &la_kde_idle_timeout_interface, &wl_seat_interface, NULL,
};

static const struct wl_message la_ext_idle_notifier_v1_requests[] = {
    {"destroy", "", la_idle_types + 0},
    {"get_idle_notification", "nuo", la_idle_types + 1},
};
static const struct wl_interface la_ext_idle_notifier_v1_interface = {
    "ext_idle_notifier_v1", 1, 2, la_ext_idle_notifier_v1_requests, 0, NULL,
};
static const struct wl_message la_ext_idle_notification_v1_requests[] = {
    {"destroy", "", la_idle_types + 0},
};
static const struct wl_message la_ext_idle_notification_v1_events[] = {
    {"idled", "", la_idle_types + 0},
    {"resumed", "", la_idle_types + 0},
};
static const struct wl_interface la_ext_idle_notification_v1_interface = {
    "ext_idle_notification_v1", 1, 1, la_ext_idle_notification_v1_requests, 2, la_ext_idle_notification_v1_events,
};

static const struct wl_message la_kde_idle_requests[] = {
    {"get_idle_timeout", "nou", la_idle_types + 4},
};
static const struct wl_interface la_kde_idle_interface = {
    "org_kde_kwin_idle", 1, 1, la_kde_idle_requests, 0, NULL,
};
static const struct wl_message la_kde_idle_timeout_requests[] = {
    {"release", "", la_idle_types + 0},
    {"simulate_user_activity", "", la_idle_types + 0},
};
static const struct wl_message la_kde_idle_timeout_events[] = {
    {"idle", "", la_idle_types + 0},
    {"resumed", "", la_idle_types + 0},
};
static const struct wl_interface la_kde_idle_timeout_interface = {
    "org_kde_kwin_idle_timeout", 1, 2, la_kde_idle_timeout_requests, 2, la_kde_idle_timeout_events,
};

/// Which idle protocol a manager object speaks.
enum la_idle_protocol { LA_IDLE_EXT = 0, LA_IDLE_KDE = 1 };

/// The two events of both notification interfaces, in the same order: idled (idle), resumed.
struct la_idle_listener {
    void (*idled)(void *data, struct wl_proxy *notification);
    void (*resumed)(void *data, struct wl_proxy *notification);
};

/// wl_registry.bind of an idle manager, version 1.
static inline struct wl_proxy *la_bind_idle_manager(struct wl_registry *registry, uint32_t name, enum la_idle_protocol protocol) {
    const struct wl_interface *interface = protocol == LA_IDLE_EXT ? &la_ext_idle_notifier_v1_interface : &la_kde_idle_interface;
    return (struct wl_proxy *)wl_registry_bind(registry, name, interface, 1);
}

/// wl_registry.bind of a wl_seat, version 1.
static inline struct wl_seat *la_bind_seat(struct wl_registry *registry, uint32_t name) {
    return (struct wl_seat *)wl_registry_bind(registry, name, &wl_seat_interface, 1);
}

/// ext_idle_notifier_v1.get_idle_notification or org_kde_kwin_idle.get_idle_timeout.
static inline struct wl_proxy *la_idle_watch(struct wl_proxy *manager, enum la_idle_protocol protocol, uint32_t timeout_ms,
                                             struct wl_seat *seat) {
    if (protocol == LA_IDLE_EXT) {
        return wl_proxy_marshal_flags(manager, 1, &la_ext_idle_notification_v1_interface, wl_proxy_get_version(manager), 0,
                                      NULL, timeout_ms, seat);
    }
    return wl_proxy_marshal_flags(manager, 0, &la_kde_idle_timeout_interface, wl_proxy_get_version(manager), 0,
                                  NULL, seat, timeout_ms);
}

/// Listens to a notification's idled/resumed (idle/resumed) events.
static inline int la_idle_add_listener(struct wl_proxy *notification, const struct la_idle_listener *listener, void *data) {
    return wl_proxy_add_listener(notification, (void (**)(void))listener, data);
}

/// Destroys a notification: its request 0 (destroy; release for the KDE protocol).
static inline void la_idle_watch_destroy(struct wl_proxy *notification) {
    wl_proxy_marshal_flags(notification, 0, NULL, wl_proxy_get_version(notification), WL_MARSHAL_FLAG_DESTROY);
}

/// Destroys a manager: ext_idle_notifier_v1.destroy; org_kde_kwin_idle has no destructor,
/// so its proxy is only freed.
static inline void la_idle_manager_destroy(struct wl_proxy *manager, enum la_idle_protocol protocol) {
    if (protocol == LA_IDLE_EXT) {
        wl_proxy_marshal_flags(manager, 0, NULL, wl_proxy_get_version(manager), WL_MARSHAL_FLAG_DESTROY);
    } else {
        wl_proxy_destroy(manager);
    }
}

#endif
