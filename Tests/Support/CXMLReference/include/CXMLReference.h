// The libxml2 push parser the tests hold XMLScanner to, event for event (XMLScannerTests): a
// test target's, not shipped in any product. It reads with alm_xml_parse's protections, using
// CXMLShim's shared set-up and refusal handlers (Sources/CXMLShim/internal.h).
#ifndef ALMANAC_CXMLREFERENCE_H
#define ALMANAC_CXMLREFERENCE_H

#include "CXMLShim.h"

/// A document read in pieces as it arrives (libxml2's push parser), with alm_xml_parse's
/// protections. Handlers get the element's local name, its attributes as `count` pairs of
/// (local name, value) with each value's length (values are not NUL-terminated), and text.
typedef struct AlmXMLStream AlmXMLStream;
typedef void (*AlmXMLStartHandler)(void *context, const char *localName, int32_t count, const char *const *pairs,
                                   const int32_t *lengths);
typedef void (*AlmXMLEndHandler)(void *context, const char *localName);
typedef void (*AlmXMLTextHandler)(void *context, const uint8_t *bytes, int32_t length);

/// NULL when out of memory.
AlmXMLStream *alm_xml_stream_open(void *context, AlmXMLStartHandler start, AlmXMLEndHandler end, AlmXMLTextHandler text,
                                  int32_t maxDepth);
/// Reads the next `length` bytes; `terminate` ends the document. Returns 0, or 1 with `error` set
/// (every later call returns the same error).
int alm_xml_stream_feed(AlmXMLStream *stream, const uint8_t *bytes, int32_t length, int terminate, AlmXMLError *error);
void alm_xml_stream_free(AlmXMLStream *stream);

#endif
