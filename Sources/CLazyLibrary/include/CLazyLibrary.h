#ifndef WIDGETHOST_CLAZYLIBRARY_H
#define WIDGETHOST_CLAZYLIBRARY_H

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

/* A C library opened with dlopen on first use rather than linked: the daemon maps libcurl (APNs) and libpq
   (PostgreSQL), with the dozen libraries each pulls in, only when it is configured to use them. A library's
   functions are resolved all at once, so a missing symbol is reported when it is loaded, not at a call. */
struct clazy_library {
    /* The file dlopen is given, e.g. "libcurl.so.4" (the soname the headers were written for). */
    const char *file;
    /* The functions to resolve, and where their addresses go, in the same order. */
    const char *const *names;
    void **functions;
    size_t count;
    pthread_mutex_t lock;
    atomic_int loaded;
};

/* Loads `library` unless it is loaded already. Returns 0, or -1 with a message naming the file (and the symbol
   that is missing, if one is) in `error` (`capacity` bytes, NUL-terminated); a failed load may be tried again. */
int clazy_library_load(struct clazy_library *library, char *error, size_t capacity);

/* The function at `index` in `library->names`, loading the library first if needed. A library that cannot be
   loaded here ends the process with the loader's message: callers check clazy_library_load before their first
   call, so this is only reached by a call no entry point guarded. */
void *clazy_library_function(struct clazy_library *library, size_t index);

/* Defines `library`, the struct clazy_library of `file_name` with the functions FUNCTIONS lists (an X-macro:
   FUNCTIONS(X) expands to X(name) for each), and an index per function. One library per C file: the indexes are
   named after the functions alone. */
#define CLAZY_LIBRARY_INDEX(function) clazy_index_##function,
#define CLAZY_LIBRARY_NAME(function) #function,
#define CLAZY_LIBRARY_DEFINE(library, file_name, FUNCTIONS)                                                     \
    enum { FUNCTIONS(CLAZY_LIBRARY_INDEX) library##_function_count };                                           \
    static const char *const library##_names[] = { FUNCTIONS(CLAZY_LIBRARY_NAME) };                             \
    static void *library##_functions[library##_function_count];                                                 \
    static struct clazy_library library = {                                                                      \
        .file = file_name, .names = library##_names, .functions = library##_functions,                           \
        .count = library##_function_count, .lock = PTHREAD_MUTEX_INITIALIZER,                                    \
    }

/* The library's own `function`, typed as its header declares it (`__typeof__`), so a forwarder defining
   `function` cannot disagree with the declaration it defines. */
#define CLAZY_LIBRARY_CALL(library, function) \
    ((__typeof__(&function))clazy_library_function(&library, clazy_index_##function))

/* Whether `file` can be opened and has `function`, as clazy_library_load reports it: 0, or -1 with its message. The
   file stays open on success, as a loaded library does. */
int clazy_library_probe(const char *file, const char *function, char *error, size_t capacity);

#endif
