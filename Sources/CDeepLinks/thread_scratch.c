/* The definition behind `cdeeplinks_thread_scratch` (see include/CDeepLinks.h); the rest is `static inline`. */
#include "CDeepLinks.h"

_Thread_local void *cdeeplinks_thread_scratch_slot;
