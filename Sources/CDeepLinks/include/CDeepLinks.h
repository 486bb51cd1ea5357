#ifndef WIDGETHOST_CDEEPLINKS_H
#define WIDGETHOST_CDEEPLINKS_H

/* C helpers of DeepLinks' hot path, for what Swift cannot spell.

   1. Where the bytes of a short URL that routing looks at are, found sixteen bytes at a time.

   Swift has no portable way to turn a vector comparison into a bit mask (SSE2's `pmovmskb`): the
   same work written with SIMD types compiles to a dozen instructions per mask where this is one.
   On x86-64 (which always has SSE2) these functions use SSE2; elsewhere they read one byte at a
   time, with the same results. */

#include <stdint.h>
#include <string.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif

/* One bit per byte of a URL of at most 64 bytes: bit `i` is set when byte `i` is of the class. */
typedef struct {
    /* `/` */
    uint64_t slashes;
    /* `?` */
    uint64_t marks;
    /* Outside `&`...`~` (0x26...0x7E): bytes a URL matched in place may not have. */
    uint64_t outside;
} cdeeplinks_url_map;

#if defined(__SSE2__)
/* The three classes of the sixteen bytes at `block`. */
static inline void cdeeplinks_block(const uint8_t *block, uint32_t *slashes, uint32_t *marks, uint32_t *outside) {
    __m128i bytes = _mm_loadu_si128((const __m128i *)block);
    *slashes = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('/')));
    *marks = (uint32_t)_mm_movemask_epi8(_mm_cmpeq_epi8(bytes, _mm_set1_epi8('?')));
    /* Signed comparisons: bytes of 0x80 and above are negative, so below 0x26 too. */
    __m128i plain = _mm_and_si128(_mm_cmpgt_epi8(bytes, _mm_set1_epi8(0x25)), _mm_cmplt_epi8(bytes, _mm_set1_epi8(0x7F)));
    *outside = (uint32_t)_mm_movemask_epi8(plain) ^ 0xFFFFu;
}
#endif

/* The map of `bytes[0..<count]`, count <= 64, a byte at a time: what `cdeeplinks_map` does
   without SSE2, and what the tests compare it with. */
static inline cdeeplinks_url_map cdeeplinks_map_bytewise(const uint8_t *bytes, long count) {
    cdeeplinks_url_map map = {0, 0, 0};
    for (long index = 0; index < count; index++) {
        uint8_t byte = bytes[index];
        map.slashes |= (uint64_t)(byte == '/') << index;
        map.marks |= (uint64_t)(byte == '?') << index;
        map.outside |= (uint64_t)(byte < 0x26 || byte > 0x7E) << index;
    }
    return map;
}

/* The map of `bytes[0..<count]`, 16 <= count <= 64. */
static inline cdeeplinks_url_map cdeeplinks_map(const uint8_t *bytes, long count) {
#if defined(__SSE2__)
    cdeeplinks_url_map map = {0, 0, 0};
    /* Blocks at 0, 16, 32...; the last one ends at `count` and overlaps the one before, which only
       sets bits already set. */
    long offset = 0;
    while (offset < count) {
        long base = offset < count - 16 ? offset : count - 16;
        uint32_t slashes, marks, outside;
        cdeeplinks_block(bytes + base, &slashes, &marks, &outside);
        map.slashes |= (uint64_t)slashes << base;
        map.marks |= (uint64_t)marks << base;
        map.outside |= (uint64_t)outside << base;
        offset = base + 16;
    }
    return map;
#else
    return cdeeplinks_map_bytewise(bytes, count);
#endif
}

/* 2. The calling thread's match scratch (`MatchScratch`), also kept in a thread-local variable:
   reading it is one load, where `pthread_getspecific` is a call. A pthread key still owns the
   scratch and frees it when the thread exits, clearing this first. Swift has no thread-local
   variables; this one is defined in globals.c. */
extern _Thread_local void *cdeeplinks_thread_scratch_slot;
static inline void *cdeeplinks_thread_scratch(void) { return cdeeplinks_thread_scratch_slot; }
static inline void cdeeplinks_set_thread_scratch(void *scratch) { cdeeplinks_thread_scratch_slot = scratch; }

/* 3. Whether `SmallASCIIString` may make strings in the standard library's layout: 0 not checked
   yet, 1 yes, 2 no. Set by the check, which building a route table runs; read with one relaxed
   load. (A Swift global with a computed initial value is read through `swift_once`, which on
   Linux is a call on every read: one for every parameter a match reads.) Defined in globals.c. */
extern int cdeeplinks_small_strings_state;
static inline int cdeeplinks_small_strings(void) { return __atomic_load_n(&cdeeplinks_small_strings_state, __ATOMIC_RELAXED); }
static inline void cdeeplinks_set_small_strings(int state) {
    __atomic_store_n(&cdeeplinks_small_strings_state, state, __ATOMIC_RELAXED);
}

#endif
