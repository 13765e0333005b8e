/* What building one tick's messages costs inside the libraries, by the way each is built
 * (docs/benchmarks.md, issue 29): run under `valgrind --tool=callgrind` by
 * scripts/tick-floor/message-build, which divides the instructions by the messages built.
 *
 *   signal-api        the activity's PropertiesChanged built with libdbus's iterators, as the
 *                     daemon builds it (body first, then path, interface and member);
 *   signal-demarshal  the same bytes marshalled once, then each message made from them with
 *                     dbus_message_demarshal (libdbus validates every byte) and dbus_message_copy
 *                     (a serial of 0, for dbus_connection_send to number): the cheapest way
 *                     libdbus offers to make a message from bytes written by hand;
 *   notify-tree       the card's Notify as GDBus sends it: the (susssasa{sv}i) body built as a
 *                     tree of GVariants, set on a GDBusMessage, serialised with
 *                     g_dbus_message_to_blob (what g_dbus_connection_send_message does on the
 *                     caller's thread), then freed;
 *   notify-serialised the same, the body made from its GVariant serialisation at once
 *                     (g_variant_new_from_bytes, trusted), as a hand-written serialiser would.
 *   none              nothing (the program's own start, subtracted by the runner).
 *
 * Usage: message-build MODE COUNT. Not a part of the product. */
#include <dbus/dbus.h>
#include <gio/gio.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "card-hints.h"

static const char *activity_path = "/io/github/liveactivities/LiveActivities1/activity/vmdv5ity";

static DBusMessage *signal_by_api(void) {
  DBusMessage *message = dbus_message_new(DBUS_MESSAGE_TYPE_SIGNAL);
  DBusMessageIter top, changed, entry, variant, invalidated;
  const char *interface = "io.github.liveactivities.LiveActivities1.Activity";
  const char *keys[] = {"Body", "CompactTrailing", "Progress"};
  const char *texts[] = {"24:57 left \xc2\xb7 ends at 06:48", "24:57"};
  double progress = 0.002;
  dbus_message_iter_init_append(message, &top);
  dbus_message_iter_append_basic(&top, DBUS_TYPE_STRING, &interface);
  dbus_message_iter_open_container(&top, DBUS_TYPE_ARRAY, "{sv}", &changed);
  for (int i = 0; i < 3; i++) {
    dbus_message_iter_open_container(&changed, DBUS_TYPE_DICT_ENTRY, NULL, &entry);
    dbus_message_iter_append_basic(&entry, DBUS_TYPE_STRING, &keys[i]);
    dbus_message_iter_open_container(&entry, DBUS_TYPE_VARIANT, i < 2 ? "s" : "d", &variant);
    if (i < 2)
      dbus_message_iter_append_basic(&variant, DBUS_TYPE_STRING, &texts[i]);
    else
      dbus_message_iter_append_basic(&variant, DBUS_TYPE_DOUBLE, &progress);
    dbus_message_iter_close_container(&entry, &variant);
    dbus_message_iter_close_container(&changed, &entry);
  }
  dbus_message_iter_close_container(&top, &changed);
  dbus_message_iter_open_container(&top, DBUS_TYPE_ARRAY, "s", &invalidated);
  dbus_message_iter_close_container(&top, &invalidated);
  dbus_message_set_path(message, activity_path);
  dbus_message_set_interface(message, "org.freedesktop.DBus.Properties");
  dbus_message_set_member(message, "PropertiesChanged");
  return message;
}

static GVariant *notify_tree(void) {
  const char *actions[] = {"complete", "Complete", "cancel", "Cancel", "extend:300", "+5 min"};
  return g_variant_new("(susss@as@a{sv}i)", "Focus", 2, "", "Pomodoro", "24:57 left \xc2\xb7 ends at 06:48",
                       g_variant_new_strv(actions, 6), card_hints(0, 16023), 0);
}

static void notify_send_path(GVariant *body, guint32 serial) {
  GDBusMessage *message = g_dbus_message_new_method_call(":1.1", "/org/freedesktop/Notifications",
                                                         "org.freedesktop.Notifications", "Notify");
  g_dbus_message_set_body(message, body);
  g_dbus_message_set_serial(message, serial);
  gsize length;
  guchar *blob = g_dbus_message_to_blob(message, &length, G_DBUS_CAPABILITY_FLAGS_NONE, NULL);
  if (!blob) {
    fprintf(stderr, "message-build: to_blob failed\n");
    exit(1);
  }
  g_free(blob);
  g_object_unref(message);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: message-build signal-api|signal-demarshal|notify-tree|notify-serialised|none COUNT\n");
    return 2;
  }
  const char *mode = argv[1];
  int count = atoi(argv[2]);
  /* Made once in every mode, so that each mode's start costs the same. */
  DBusMessage *template = signal_by_api();
  dbus_message_set_serial(template, 1);
  char *bytes;
  int length;
  if (!dbus_message_marshal(template, &bytes, &length))
    return 1;
  GVariant *tree = g_variant_ref_sink(notify_tree());
  gsize size = g_variant_get_size(tree);
  GBytes *serialised = g_bytes_new(g_variant_get_data(tree), size);
  /* Held for the run, as the daemon's VariantTypeInfoCache holds them. */
  GVariant *held = g_variant_ref_sink(g_variant_new_from_bytes(G_VARIANT_TYPE("(susssasa{sv}i)"), serialised, TRUE));
  char *copy = malloc((size_t)length);
  for (int i = 0; i < count; i++) {
    if (strcmp(mode, "signal-api") == 0) {
      dbus_message_unref(signal_by_api());
    } else if (strcmp(mode, "signal-demarshal") == 0) {
      memcpy(copy, bytes, (size_t)length);
      DBusError error;
      dbus_error_init(&error);
      DBusMessage *made = dbus_message_demarshal(copy, length, &error);
      if (!made) {
        fprintf(stderr, "message-build: %s\n", error.message);
        return 1;
      }
      DBusMessage *unnumbered = dbus_message_copy(made);
      dbus_message_unref(made);
      dbus_message_unref(unnumbered);
    } else if (strcmp(mode, "notify-tree") == 0) {
      notify_send_path(notify_tree(), (guint32)i + 1);
    } else if (strcmp(mode, "notify-serialised") == 0) {
      notify_send_path(g_variant_new_from_bytes(G_VARIANT_TYPE("(susssasa{sv}i)"), serialised, TRUE), (guint32)i + 1);
    } else if (strcmp(mode, "none") != 0) {
      fprintf(stderr, "message-build: unknown mode %s\n", mode);
      return 2;
    }
  }
  free(copy);
  g_variant_unref(held);
  g_variant_unref(tree);
  g_bytes_unref(serialised);
  dbus_free(bytes);
  dbus_message_unref(template);
  return 0;
}
