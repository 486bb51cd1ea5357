/* libcurl's functions the APNs client calls, defined here under their own names: each calls libcurl's, resolved
   by CLazyLibrary when ccurl_load first ran, and typed as curl.h declares it. */
#define CURL_DISABLE_TYPECHECK
#include "CCurl.h"

#include <CLazyLibrary.h>

#define CCURL_FUNCTIONS(X) \
    X(curl_global_init) X(curl_easy_init) X(curl_easy_cleanup) X(curl_easy_reset) X(curl_easy_setopt) \
    X(curl_easy_getinfo) X(curl_easy_strerror) X(curl_multi_init) X(curl_multi_cleanup) X(curl_multi_setopt) \
    X(curl_multi_add_handle) X(curl_multi_remove_handle) X(curl_multi_perform) X(curl_multi_poll) \
    X(curl_multi_wakeup) X(curl_multi_info_read) X(curl_multi_strerror) X(curl_slist_append) X(curl_slist_free_all)

CLAZY_LIBRARY_DEFINE(ccurl_library, "libcurl.so.4", CCURL_FUNCTIONS);

#define CURL_CALL(name) CLAZY_LIBRARY_CALL(ccurl_library, name)

int ccurl_load(char *error, size_t capacity) { return clazy_library_load(&ccurl_library, error, capacity); }

CURLcode curl_global_init(long flags) { return CURL_CALL(curl_global_init)(flags); }
CURL *curl_easy_init(void) { return CURL_CALL(curl_easy_init)(); }
void curl_easy_cleanup(CURL *handle) { CURL_CALL(curl_easy_cleanup)(handle); }
void curl_easy_reset(CURL *handle) { CURL_CALL(curl_easy_reset)(handle); }
const char *curl_easy_strerror(CURLcode code) { return CURL_CALL(curl_easy_strerror)(code); }
CURLM *curl_multi_init(void) { return CURL_CALL(curl_multi_init)(); }
CURLMcode curl_multi_cleanup(CURLM *multi) { return CURL_CALL(curl_multi_cleanup)(multi); }
CURLMcode curl_multi_add_handle(CURLM *multi, CURL *handle) { return CURL_CALL(curl_multi_add_handle)(multi, handle); }
CURLMcode curl_multi_remove_handle(CURLM *multi, CURL *handle) {
    return CURL_CALL(curl_multi_remove_handle)(multi, handle);
}
CURLMcode curl_multi_perform(CURLM *multi, int *running) { return CURL_CALL(curl_multi_perform)(multi, running); }
CURLMcode curl_multi_poll(CURLM *multi, struct curl_waitfd extra[], unsigned int count, int timeout, int *ready) {
    return CURL_CALL(curl_multi_poll)(multi, extra, count, timeout, ready);
}
CURLMcode curl_multi_wakeup(CURLM *multi) { return CURL_CALL(curl_multi_wakeup)(multi); }
CURLMsg *curl_multi_info_read(CURLM *multi, int *left) { return CURL_CALL(curl_multi_info_read)(multi, left); }
const char *curl_multi_strerror(CURLMcode code) { return CURL_CALL(curl_multi_strerror)(code); }
struct curl_slist *curl_slist_append(struct curl_slist *list, const char *text) {
    return CURL_CALL(curl_slist_append)(list, text);
}
void curl_slist_free_all(struct curl_slist *list) { CURL_CALL(curl_slist_free_all)(list); }

CURLcode ccurl_easy_setopt_long(CURL *handle, CURLoption option, long value) {
    return CURL_CALL(curl_easy_setopt)(handle, option, value);
}
CURLcode ccurl_easy_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return CURL_CALL(curl_easy_setopt)(handle, option, value);
}
CURLcode ccurl_easy_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return CURL_CALL(curl_easy_setopt)(handle, option, value);
}
CURLcode ccurl_easy_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return CURL_CALL(curl_easy_setopt)(handle, option, value);
}
CURLcode ccurl_easy_setopt_offset(CURL *handle, CURLoption option, curl_off_t value) {
    return CURL_CALL(curl_easy_setopt)(handle, option, value);
}
CURLcode ccurl_easy_setopt_callback(CURL *handle, CURLoption option, ccurl_data_callback callback) {
    return CURL_CALL(curl_easy_setopt)(handle, option, callback);
}
CURLcode ccurl_easy_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return CURL_CALL(curl_easy_getinfo)(handle, info, value);
}
CURLcode ccurl_easy_getinfo_pointer(CURL *handle, CURLINFO info, char **value) {
    return CURL_CALL(curl_easy_getinfo)(handle, info, value);
}
CURLMcode ccurl_multi_setopt_long(CURLM *handle, CURLMoption option, long value) {
    return CURL_CALL(curl_multi_setopt)(handle, option, value);
}
