#ifndef LIVEACTIVITIES_CMOSQUITTO_SHIM_H
#define LIVEACTIVITIES_CMOSQUITTO_SHIM_H
// libmosquitto's header only: its types, enums and constants. The library itself is not
// linked; the MQTT target loads it with dlopen when push is configured (MosquittoLibrary.swift),
// so a daemon with push off maps neither libmosquitto nor the OpenSSL it depends on.
#include <mosquitto.h>

#endif
