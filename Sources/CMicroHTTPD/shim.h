#ifndef WIDGETHOST_CMICROHTTPD_SHIM_H
#define WIDGETHOST_CMICROHTTPD_SHIM_H

/* microhttpd.h expects the socket and varargs types to be declared before it. */
#include <sys/types.h>
#include <sys/socket.h>
#include <stdarg.h>
#include <stdint.h>
#include <unistd.h>
#include <sys/eventfd.h>
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

/**
 * The length of the request's head (request line, header fields and the empty line after them), or 0 before the
 * head is read.
 *
 * The same fixed-arity wrapper around the variadic MHD_get_connection_info, for
 * MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE.
 */
static inline size_t widgethost_mhd_request_head_size(struct MHD_Connection *connection)
{
    const union MHD_ConnectionInfo *info =
        MHD_get_connection_info(connection, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
    return info == NULL ? 0 : info->header_size;
}

/**
 * Closes the listen socket `listen_fd` and leaves in its place, under the same descriptor number, an
 * eventfd that never becomes ready; 0 on success, -1 (errno set, nothing changed) when no eventfd
 * could be made.
 *
 * This is how the server stops accepting while libmicrohttpd's threads go on serving open
 * connections, instead of MHD_quiesce_daemon: with epoll and a thread pool, libmicrohttpd 0.9.75's
 * MHD_quiesce_daemon aborts the process (MHD_PANIC "Failed to remove listen FD from epoll set") when a
 * worker, seeing the daemon quiesced, removes the listen socket from its epoll set before
 * MHD_quiesce_daemon's own removal, which does not allow for ENOENT. Replaced by dup2, the old socket
 * is closed at once (new connections are refused) and leaves every epoll set with it; the number
 * stays valid for the workers and for MHD_stop_daemon, which closes it.
 */
static inline int widgethost_close_listen_socket(int listen_fd)
{
    int placeholder = eventfd(0, EFD_CLOEXEC);
    if (placeholder < 0) return -1;
    int result = dup2(placeholder, listen_fd) < 0 ? -1 : 0;
    close(placeholder);
    return result;
}

#endif
