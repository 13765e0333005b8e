#ifndef LIVEACTIVITIES_CDBUS_SHIM_H
#define LIVEACTIVITIES_CDBUS_SHIM_H
// What Swift cannot import from <dbus/dbus.h> (macros, variadics) is re-exported here.
#include <dbus/dbus.h>
#endif
