/* The floor of a tick (docs/benchmarks.md, issue 29): what any program pays on this machine
 * to send, once a second, the messages one tick of a per-second card sends, with nothing else.
 *
 *   ours     two PropertiesChanged through libdbus from the main thread (the activity's, two
 *            strings and a double; the manager's CompactText), then the card's Notify through GDBus, its
 *            answer read on GDBus's worker thread by a filter (as RoutineReplyFilter does);
 *   signals  the two PropertiesChanged only;
 *   notify   the Notify only;
 *   peer     one PropertiesChanged through GDBus (what gnome-pomodoro sends a second).
 *
 * Written in C so that the probe itself costs nothing beyond the libraries' calls; the daemon
 * does the same through its Swift wrappers of the same libraries. Not a part of the product. */
#include <dbus/dbus.h>
#include <gio/gio.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/timerfd.h>
#include <unistd.h>

#include "card-hints.h"

/* `a{sv}` of string values, but for a key named "Progress", whose value is a double (as the
 * daemon's Progress property is). */
static void append_properties_changed(DBusMessage *message, const char *interface, int count,
                                      const char **keys, const char **values) {
  DBusMessageIter top, changed, entry, variant, invalidated;
  dbus_message_iter_init_append(message, &top);
  dbus_message_iter_append_basic(&top, DBUS_TYPE_STRING, &interface);
  dbus_message_iter_open_container(&top, DBUS_TYPE_ARRAY, "{sv}", &changed);
  for (int i = 0; i < count; i++) {
    dbus_message_iter_open_container(&changed, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &keys[i]);
    if (strcmp(keys[i], "Progress") == 0) {
      double progress = strtod(values[i], NULL);
      dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "d", &variant);
      dbus_message_iter_append_basic(&variant, DBUS_TYPE_DOUBLE, &progress);
    } else {
      dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, "s", &variant);
      dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &values[i]);
    }
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&changed, &entry);
  }
  dbus_message_iter_close_container(&top, &changed);
  dbus_message_iter_open_container(&top, DBUS_TYPE_ARRAY, "s", &invalidated);
  dbus_message_iter_close_container(&top, &invalidated);
}

/* Body first, then the names, as DBusMessage.signal builds it. */
static void send_properties_changed(DBusConnection *connection, const char *path, const char *interface,
                                    int count, const char **keys, const char **values) {
  DBusMessage *message = dbus_message_new(DBUS_MESSAGE_TYPE_SIGNAL);
  if (!message) return;
  append_properties_changed(message, interface, count, keys, values);
  dbus_message_set_path(message, path);
  dbus_message_set_interface(message, "org.freedesktop.DBus.Properties");
  dbus_message_set_member(message, "PropertiesChanged");
  dbus_message_set_no_reply(message, TRUE);
  dbus_connection_send(connection, message, NULL);
  dbus_message_unref(message);
}

static volatile guint32 awaited_serial;

/* On GDBus's worker: the answer to the last Notify is read and dropped there. */
static GDBusMessage *drop_answer(GDBusConnection *connection, GDBusMessage *message, gboolean incoming, gpointer data) {
  (void)connection; (void)data;
  if (incoming && g_dbus_message_get_message_type(message) == G_DBUS_MESSAGE_TYPE_METHOD_RETURN &&
      g_dbus_message_get_reply_serial(message) == awaited_serial) {
    g_object_unref(message);
    return NULL;
  }
  return message;
}

static GVariant *notify_arguments(guint32 replaces, const char *body) {
  const char *actions[] = {"complete", "Complete", "cancel", "Cancel", "extend:300", "+5 min", NULL};
  return g_variant_new("(susss^as@a{sv}i)", "Focus", replaces, "", "Pomodoro", body, actions, card_hints(5, getpid()), 0);
}

/* The card's first show, waiting for the id its replaces then name. */
static guint32 show_card(GDBusConnection *connection, const char *server) {
  GVariant *answer = g_dbus_connection_call_sync(connection, server, "/org/freedesktop/Notifications",
                                                 "org.freedesktop.Notifications", "Notify",
                                                 notify_arguments(0, "25:00 left"), G_VARIANT_TYPE("(u)"),
                                                 G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
  guint32 id = 0;
  if (answer) {
    g_variant_get(answer, "(u)", &id);
    g_variant_unref(answer);
  }
  return id;
}

/* A routine replace: sent without waiting; the answer is dropped on the worker. */
static void send_notify(GDBusConnection *connection, const char *server, guint32 replaces, const char *body) {
  GDBusMessage *message = g_dbus_message_new_method_call(server, "/org/freedesktop/Notifications",
                                                         "org.freedesktop.Notifications", "Notify");
  g_dbus_message_set_body(message, notify_arguments(replaces, body));
  guint32 serial = 0;
  g_dbus_connection_send_message(connection, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, &serial, NULL);
  awaited_serial = serial;
  g_object_unref(message);
}

static void emit_peer_signal(GDBusConnection *connection, int seconds) {
  GVariantBuilder changed;
  g_variant_builder_init(&changed, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&changed, "{sv}", "Elapsed", g_variant_new_double(seconds));
  g_dbus_connection_emit_signal(connection, NULL, "/org/gnome/Pomodoro", "org.freedesktop.DBus.Properties",
                                "PropertiesChanged", g_variant_new("(sa{sv}as)", "org.gnome.Pomodoro", &changed, NULL),
                                NULL);
}

int main(int argc, char **argv) {
  const char *mode = argc > 1 ? argv[1] : "ours";
  int peer = strcmp(mode, "peer") == 0, signals = strcmp(mode, "ours") == 0 || strcmp(mode, "signals") == 0,
      notify = strcmp(mode, "ours") == 0 || strcmp(mode, "notify") == 0;
  if (!peer && !signals && !notify) {
    fprintf(stderr, "usage: tick-floor ours|signals|notify|peer\n");
    return 2;
  }
  DBusError error;
  dbus_error_init(&error);
  DBusConnection *libdbus = signals ? dbus_bus_get_private(DBUS_BUS_SESSION, &error) : NULL;
  GDBusConnection *gdbus = g_bus_get_sync(G_BUS_TYPE_SESSION, NULL, NULL);
  if ((signals && !libdbus) || !gdbus) {
    fprintf(stderr, "tick-floor: no session bus\n");
    return 1;
  }
  g_dbus_connection_add_filter(gdbus, drop_answer, NULL, NULL);
  char server[256] = "org.freedesktop.Notifications";
  GVariant *owner = g_dbus_connection_call_sync(gdbus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                                "org.freedesktop.DBus", "GetNameOwner",
                                                g_variant_new("(s)", "org.freedesktop.Notifications"), NULL,
                                                G_DBUS_CALL_FLAGS_NONE, -1, NULL, NULL);
  if (owner) {
    const char *name;
    g_variant_get(owner, "(&s)", &name);
    snprintf(server, sizeof server, "%s", name);
    g_variant_unref(owner);
  }
  int timer = timerfd_create(CLOCK_MONOTONIC, TFD_CLOEXEC);
  struct itimerspec every_second = {{1, 0}, {1, 0}};
  timerfd_settime(timer, 0, &every_second, NULL);
  guint32 card_id = notify ? show_card(gdbus, server) : 0;
  for (int tick = 1;; tick++) {
    struct pollfd wait_for = {timer, POLLIN, 0};
    if (poll(&wait_for, 1, -1) < 0) continue;
    uint64_t expirations;
    if (read(timer, &expirations, sizeof expirations) < 0) continue;
    int left = 25 * 60 - tick % (25 * 60);
    char body[64], trailing[16], compact[32];
    snprintf(trailing, sizeof trailing, "%d:%02d", left / 60, left % 60);
    snprintf(body, sizeof body, "%s left · ends at 00:27", trailing);
    snprintf(compact, sizeof compact, "⏱ %s", trailing);
    if (peer) {
      emit_peer_signal(gdbus, tick);
      continue;
    }
    if (signals) {
      const char *activity_keys[3] = {"Body", "CompactTrailing", "Progress"};
      const char *activity_values[3] = {body, trailing, "0.05"};
      send_properties_changed(libdbus, "/io/github/liveactivities/LiveActivities1/activity/a2amqqyz",
                              "io.github.liveactivities.LiveActivities1.Activity", 3, activity_keys, activity_values);
      const char *manager_keys[1] = {"CompactText"};
      const char *manager_values[1] = {compact};
      send_properties_changed(libdbus, "/io/github/liveactivities/LiveActivities1",
                              "io.github.liveactivities.LiveActivities1", 1, manager_keys, manager_values);
    }
    if (notify) {
      send_notify(gdbus, server, card_id, body);
    }
  }
}
