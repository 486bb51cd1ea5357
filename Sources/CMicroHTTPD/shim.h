#ifndef WIDGETHOST_CMICROHTTPD_SHIM_H
#define WIDGETHOST_CMICROHTTPD_SHIM_H

/* microhttpd.h expects the socket and varargs types to be declared before it. */
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <microhttpd.h>

/**
 * The peer address of a connection, or NULL.
 *
 * MHD_get_connection_info is variadic, which Swift cannot call; this fixed-arity wrapper asks for
 * MHD_CONNECTION_INFO_CLIENT_ADDRESS only. The address lives as long as the connection.
 * See https://www.gnu.org/software/libmicrohttpd/manual/html_node/microhttpd_002dinfo-conn.html
 */
static inline const struct sockaddr *widgethost_mhd_client_address(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info == NULL ? NULL : info->client_addr;
}

#endif
