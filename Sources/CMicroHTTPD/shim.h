#ifndef WIDGETHOST_CMICROHTTPD_SHIM_H
#define WIDGETHOST_CMICROHTTPD_SHIM_H

/* microhttpd.h expects the socket and varargs types to be declared before it. */
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

#endif
