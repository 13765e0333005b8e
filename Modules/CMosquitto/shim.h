#ifndef LIVEACTIVITIES_CMOSQUITTO_SHIM_H
#define LIVEACTIVITIES_CMOSQUITTO_SHIM_H
// libmosquitto's client API. Everything the MQTT target uses imports as is (functions and
// enums); this header only gathers it in one place, like the CDBus and CNotify shims.
#include <mosquitto.h>

/// The SUBACK code of a refused subscription (MQTT 3.1.1: 0x80), a macro-free constant.
static const int la_mqtt_suback_failure = 0x80;

#endif
