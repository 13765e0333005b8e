#ifndef LIVEACTIVITIES_CNOTIFY_SHIM_H
#define LIVEACTIVITIES_CNOTIFY_SHIM_H
// What Swift cannot import from <libnotify/notify.h> and GLib (macros, variadics) is re-exported here.
#include <libnotify/notify.h>
#include <gio/gio.h>

/// GLib's TRUE / FALSE (macros Swift cannot import).
static const gboolean la_g_true = 1;
static const gboolean la_g_false = 0;

/// Signature of the NotifyNotification "closed" signal handler.
typedef void (*la_closed_handler)(NotifyNotification *notification, gpointer user_data);

/// g_signal_connect (a macro) for the "closed" signal; `destroy` frees `user_data`
/// when the handler goes away (the notification is finalized).
static inline gulong la_notification_connect_closed(NotifyNotification *notification,
                                                    la_closed_handler handler,
                                                    gpointer user_data,
                                                    GClosureNotify destroy) {
    return g_signal_connect_data(notification, "closed", G_CALLBACK(handler), user_data, destroy, 0);
}

/// g_object_get(notification, "id", …) (variadic): the server's id, 0 when not shown.
static inline gint la_notification_get_id(NotifyNotification *notification) {
    gint id = 0;
    g_object_get(notification, "id", &id, NULL);
    return id;
}

/// g_object_set(notification, "id", …) (variadic): takes back a server id (replaces it on the next show).
static inline void la_notification_set_id(NotifyNotification *notification, gint id) {
    g_object_set(notification, "id", id, NULL);
}

/// g_object_unref for a NotifyNotification.
static inline void la_notification_unref(NotifyNotification *notification) {
    g_object_unref(notification);
}

/// G_VARIANT_TYPE_UINT32 (a macro): the type of Notify's reply value.
static const GVariantType *const la_variant_type_uint32 = G_VARIANT_TYPE_UINT32;
/// G_VARIANT_TYPE_STRING (a macro): the type of an error answer's message.
static const GVariantType *const la_variant_type_string = G_VARIANT_TYPE_STRING;

#endif
