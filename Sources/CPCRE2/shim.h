#ifndef WIDGETHOST_CPCRE2_SHIM_H
#define WIDGETHOST_CPCRE2_SHIM_H

/* System-library targets take no cSettings, so the code-unit width PCRE2 needs is set here.
   Swift calls the `_8` names (pcre2_compile_8, ...): the unsuffixed names are macros. */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stddef.h>

/* PCRE2_UNSET is `~(PCRE2_SIZE)0`, a macro expression Swift cannot import. */
static inline PCRE2_SIZE cpcre2_unset(void) { return PCRE2_UNSET; }

/* PCRE2_ZERO_TERMINATED is a macro expression too; WidgetHost passes explicit UTF-8 byte lengths,
   but tests of the shim use this one. */
static inline PCRE2_SIZE cpcre2_zero_terminated(void) { return PCRE2_ZERO_TERMINATED; }

#endif
