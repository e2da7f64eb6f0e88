// What parse.c shares with the tests' reference stream reader (Tests/Support/CXMLReference):
// set-up, errors, and the handlers that refuse what a document may not do (entity declarations,
// undefined references, nesting past the limit).
#ifndef ALMANAC_CXMLSHIM_INTERNAL_H
#define ALMANAC_CXMLSHIM_INTERNAL_H

#include <libxml/parser.h>
#include "CXMLShim.h"

/// What the refusal handlers find in ctxt->_private (first in any larger state).
typedef struct AlmParseState {
    startElementNsSAX2Func startElement;
    int32_t maxDepth;
    AlmXMLError *error;
    int refused;
} AlmParseState;

void alm_xml_setup(void);
void alm_set_error(AlmXMLError *error, int32_t kind, int32_t line, int32_t column, const char *message);
void alm_refuse_entity_declaration(void *context, const xmlChar *name, int type, const xmlChar *publicId,
                                   const xmlChar *systemId, xmlChar *content);
void alm_refuse_undefined_reference(void *context, const xmlChar *name);
/// Whether the element starting now is nested past the limit (then the error is set and parsing stops).
int alm_refuse_too_deep(xmlParserCtxtPtr ctxt, AlmParseState *state);

#endif
