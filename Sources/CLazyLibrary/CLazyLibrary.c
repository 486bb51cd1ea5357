#include "CLazyLibrary.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int clazy_library_load(struct clazy_library *library, char *error, size_t capacity) {
    if (atomic_load_explicit(&library->loaded, memory_order_acquire)) return 0;
    pthread_mutex_lock(&library->lock);
    int result = 0;
    if (!atomic_load_explicit(&library->loaded, memory_order_relaxed)) {
        /* RTLD_LOCAL: its symbols stay out of the global scope, so nothing else binds to them by accident. */
        void *handle = dlopen(library->file, RTLD_NOW | RTLD_LOCAL);
        if (handle == NULL) {
            const char *reason = dlerror();
            snprintf(error, capacity, "%s could not be loaded: %s", library->file, reason ? reason : "unknown error");
            result = -1;
        } else {
            for (size_t index = 0; index < library->count; index++) {
                void *function = dlsym(handle, library->names[index]);
                if (function == NULL) {
                    snprintf(error, capacity, "%s has no function %s (an older version than the one required?)",
                             library->file, library->names[index]);
                    dlclose(handle);
                    result = -1;
                    break;
                }
                library->functions[index] = function;
            }
            /* The handle stays open for the process's life: its functions are called until exit. */
            if (result == 0) atomic_store_explicit(&library->loaded, 1, memory_order_release);
        }
    }
    pthread_mutex_unlock(&library->lock);
    return result;
}

void *clazy_library_function(struct clazy_library *library, size_t index) {
    if (!atomic_load_explicit(&library->loaded, memory_order_acquire)) {
        char error[512];
        if (clazy_library_load(library, error, sizeof error) != 0) {
            fprintf(stderr, "widgethost: %s\n", error);
            abort();
        }
    }
    return library->functions[index];
}

int clazy_library_probe(const char *file, const char *function, char *error, size_t capacity) {
    const char *const names[] = { function };
    void *functions[1];
    struct clazy_library library = {
        .file = file, .names = names, .functions = functions, .count = 1, .lock = PTHREAD_MUTEX_INITIALIZER,
    };
    int result = clazy_library_load(&library, error, capacity);
    pthread_mutex_destroy(&library.lock);
    return result;
}
