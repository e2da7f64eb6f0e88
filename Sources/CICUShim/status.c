#include "require_icu.h"
#include <stdlib.h>
#include <string.h>
#include <unicode/uclean.h>
#include <unicode/ucal.h>
#include <unicode/uversion.h>
#include <unicode/ustring.h>
#include "internal.h"

int alm_icu_failure(int32_t status) { return U_FAILURE((UErrorCode)status); }

const char *alm_icu_error_name(int32_t status) { return u_errorName((UErrorCode)status); }

const char *alm_icu_version(void) { return U_ICU_VERSION; }

const char *alm_icu_tzdata_version(int32_t *status) { return ucal_getTZDataVersion((UErrorCode *)status); }

int32_t alm_icu_buffer_overflow_code(void) { return U_BUFFER_OVERFLOW_ERROR; }

int32_t alm_copy_uchars(const UChar *text, int32_t length, uint16_t *out, int32_t capacity, UErrorCode *status) {
    if (U_FAILURE(*status)) return 0;
    if (length > capacity) {
        *status = U_BUFFER_OVERFLOW_ERROR;
        return length;
    }
    if (length > 0) memcpy(out, text, (size_t)length * sizeof(UChar));
    return length;
}

AlmStringList *alm_list_wrap(UEnumeration *enumeration, UErrorCode *status) {
    if (U_FAILURE(*status) || enumeration == NULL) {
        if (enumeration) uenum_close(enumeration);
        return NULL;
    }
    AlmStringList *list = (AlmStringList *)malloc(sizeof(AlmStringList));
    if (!list) {
        uenum_close(enumeration);
        *status = U_MEMORY_ALLOCATION_ERROR;
        return NULL;
    }
    list->enumeration = enumeration;
    return list;
}

const uint16_t *alm_list_next(AlmStringList *list, int32_t *length, int32_t *status) {
    if (!list) return NULL;
    return (const uint16_t *)uenum_unext(list->enumeration, length, (UErrorCode *)status);
}

void alm_list_close(AlmStringList *list) {
    if (!list) return;
    uenum_close(list->enumeration);
    free(list);
}
