#ifndef WIDGETHOST_CCURL_H
#define WIDGETHOST_CCURL_H

/* libcurl's declarations, with libcurl opened on first use instead of linked (CLazyLibrary): a daemon that sends
   no pushes never maps it. The headers come from libcurl4-openssl-dev; libcurl.so.4 is opened at run time. */
#include <curl/curl.h>
#include <stddef.h>

/* Loads libcurl unless it is loaded. Returns 0, or -1 with a message naming the library in `error`. Call it before
   any other libcurl function (HTTP2Client does): a call without a loaded libcurl ends the process. */
int ccurl_load(char *error, size_t capacity);

/* curl_easy_setopt, curl_multi_setopt and curl_easy_getinfo are variadic: not callable from Swift.
   One wrapper per argument type the APNs client passes; the option constants themselves import. */
CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
/* CURLOPT_POSTFIELDSIZE_LARGE takes a curl_off_t: the body's length in bytes, never strlen. */
CURLcode ccurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value);

/* CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION share this signature. */
typedef size_t (*ccurl_data_callback)(char *data, size_t size, size_t count, void *context);

CURLcode ccurl_easy_setopt_callback(CURL *handle, CURLoption option, ccurl_data_callback callback);
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, char **value);
CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value);

/* CURLMsg.data is a union; the result code of a finished transfer is its `result` member. */
static inline CURLcode ccurl_message_result(const CURLMsg *message) {
    return message->data.result;
}

#endif
