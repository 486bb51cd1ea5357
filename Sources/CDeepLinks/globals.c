/* The definitions behind `cdeeplinks_thread_scratch` and `cdeeplinks_small_strings` (see
   include/CDeepLinks.h); the rest is `static inline`. */
#include "CDeepLinks.h"

_Thread_local void *cdeeplinks_thread_scratch_slot;
int cdeeplinks_small_strings_state;
