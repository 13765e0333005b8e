/* The hints of the daemon's routine card replace (a focus card on dunst), shared by the tick's
 * floor probe (tick-floor.c) and the message-cost probe (message-build.c), so both build the
 * same Notify the daemon sends. */
#ifndef CARD_HINTS_H
#define CARD_HINTS_H
#include <glib.h>

static inline GVariant *card_hints(gint32 value, gint64 sender_pid) {
  GVariantBuilder hints;
  g_variant_builder_init(&hints, G_VARIANT_TYPE("a{sv}"));
  g_variant_builder_add(&hints, "{sv}", "category", g_variant_new_string("x-liveactivities"));
  g_variant_builder_add(&hints, "{sv}", "desktop-entry", g_variant_new_string("io.github.liveactivities"));
  g_variant_builder_add(&hints, "{sv}", "resident", g_variant_new_boolean(TRUE));
  g_variant_builder_add(&hints, "{sv}", "suppress-sound", g_variant_new_boolean(TRUE));
  g_variant_builder_add(&hints, "{sv}", "urgency", g_variant_new_byte(1));
  g_variant_builder_add(&hints, "{sv}", "value", g_variant_new_int32(value));
  g_variant_builder_add(&hints, "{sv}", "sender-pid", g_variant_new_int64(sender_pid));
  return g_variant_builder_end(&hints);
}
#endif
