#ifndef LIVEACTIVITIES_CNOTIFY_SHIM_H
#define LIVEACTIVITIES_CNOTIFY_SHIM_H
// What Swift cannot import from <libnotify/notify.h> and GLib (macros, variadics) is re-exported here.
#include <libnotify/notify.h>
#endif
