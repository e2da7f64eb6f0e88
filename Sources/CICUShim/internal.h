// Shared by the shim's .c files only; never part of the public header.
#ifndef ALMANAC_CICUSHIM_INTERNAL_H
#define ALMANAC_CICUSHIM_INTERNAL_H

#include <unicode/utypes.h>
#include <unicode/uenum.h>
#include "CICUShim.h"

struct AlmStringList {
    UEnumeration *enumeration;
};

AlmStringList *alm_list_wrap(UEnumeration *enumeration, UErrorCode *status);

/// Copies `length` UTF-16 units into `out` when they fit; returns `length` either way and sets
/// U_BUFFER_OVERFLOW_ERROR when they do not, the way ICU's own preflighting works.
int32_t alm_copy_uchars(const UChar *text, int32_t length, uint16_t *out, int32_t capacity, UErrorCode *status);

#endif
