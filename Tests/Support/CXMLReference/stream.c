#include "require_libxml2.h"
#include <stdlib.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/SAX2.h>
#include "CXMLReference.h"
#include "internal.h"

// A document read as it arrives (libxml2's push parser with SAX callbacks): the reference the
// hand-written XMLScanner, which reads a workbook's sheets, is tested against (XMLStreamReader's
// comment in Tests/AlmanacXMLTests says why it is kept). The same protections as alm_xml_parse:
// no network, no external entities, entity declarations refused, a depth limit.

struct AlmXMLStream {
    AlmParseState state;  // first: the shared refusal handlers read ctxt->_private as AlmParseState
    xmlParserCtxtPtr ctxt;
    void *context;
    AlmXMLStartHandler start;
    AlmXMLEndHandler end;
    AlmXMLTextHandler text;
    AlmXMLError error;
};

enum { STACK_ATTRIBUTES = 16 };

static void stream_start(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI,
                         int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                         const xmlChar **attributes) {
    (void)prefix;
    (void)URI;
    (void)nb_namespaces;
    (void)namespaces;
    (void)nb_defaulted;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)context;
    AlmXMLStream *stream = (AlmXMLStream *)ctxt->_private;
    if (alm_refuse_too_deep(ctxt, &stream->state)) return;
    // libxml2 gives five pointers an attribute (name, prefix, URI, value, end of value): the handler
    // gets the name and the value with its length (values are not NUL-terminated).
    const char *stackPairs[STACK_ATTRIBUTES * 2];
    int32_t stackLengths[STACK_ATTRIBUTES];
    const char **pairs = stackPairs;
    int32_t *lengths = stackLengths;
    if (nb_attributes > STACK_ATTRIBUTES) {
        pairs = malloc(sizeof(char *) * 2 * (size_t)nb_attributes);
        lengths = malloc(sizeof(int32_t) * (size_t)nb_attributes);
        if (!pairs || !lengths) {
            free(pairs == stackPairs ? NULL : pairs);
            free(lengths == stackLengths ? NULL : lengths);
            alm_set_error(stream->state.error, ALM_XML_OUT_OF_MEMORY, 0, 0, "out of memory");
            stream->state.refused = 1;
            xmlStopParser(ctxt);
            return;
        }
    }
    for (int index = 0; index < nb_attributes; index++) {
        pairs[index * 2] = (const char *)attributes[index * 5];
        pairs[index * 2 + 1] = (const char *)attributes[index * 5 + 3];
        lengths[index] = (int32_t)(attributes[index * 5 + 4] - attributes[index * 5 + 3]);
    }
    stream->start(stream->context, (const char *)localname, nb_attributes, pairs, lengths);
    if (pairs != stackPairs) free(pairs);
    if (lengths != stackLengths) free(lengths);
}

static void stream_end(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI) {
    (void)prefix;
    (void)URI;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)context;
    AlmXMLStream *stream = (AlmXMLStream *)ctxt->_private;
    stream->end(stream->context, (const char *)localname);
}

static void stream_text(void *context, const xmlChar *bytes, int length) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)context;
    AlmXMLStream *stream = (AlmXMLStream *)ctxt->_private;
    stream->text(stream->context, (const uint8_t *)bytes, length);
}

AlmXMLStream *alm_xml_stream_open(void *context, AlmXMLStartHandler start, AlmXMLEndHandler end, AlmXMLTextHandler text,
                                  int32_t maxDepth) {
    alm_xml_setup();
    AlmXMLStream *stream = calloc(1, sizeof(AlmXMLStream));
    if (!stream) return NULL;
    xmlSAXHandler handler;
    memset(&handler, 0, sizeof(handler));
    xmlSAXVersion(&handler, 2);
    handler.startElementNs = stream_start;
    handler.endElementNs = stream_end;
    handler.characters = stream_text;
    handler.cdataBlock = stream_text;
    handler.ignorableWhitespace = stream_text;
    handler.entityDecl = alm_refuse_entity_declaration;
    handler.reference = alm_refuse_undefined_reference;
    handler.startElement = NULL;
    handler.endElement = NULL;
    // NULL user data: the callbacks get the parser context, whose _private is this stream.
    stream->ctxt = xmlCreatePushParserCtxt(&handler, NULL, NULL, 0, NULL);
    if (!stream->ctxt) {
        free(stream);
        return NULL;
    }
    xmlCtxtUseOptions(stream->ctxt, XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR);
    stream->state.maxDepth = (maxDepth > 255 || maxDepth < 1) ? 255 : maxDepth;
    stream->state.error = &stream->error;
    stream->ctxt->_private = stream;
    stream->context = context;
    stream->start = start;
    stream->end = end;
    stream->text = text;
    return stream;
}

int alm_xml_stream_feed(AlmXMLStream *stream, const uint8_t *bytes, int32_t length, int terminate, AlmXMLError *error) {
    memset(error, 0, sizeof(*error));
    if (stream->state.refused) {
        *error = stream->error;
        return 1;
    }
    int status = xmlParseChunk(stream->ctxt, (const char *)bytes, length, terminate);
    if (stream->state.refused) {
        *error = stream->error;
        return 1;
    }
    if (status != 0 || !stream->ctxt->wellFormed) {
        const xmlError *last = xmlCtxtGetLastError(stream->ctxt);
        alm_set_error(error, ALM_XML_MALFORMED, last ? last->line : 0, last ? last->int2 : 0,
                      last && last->message ? last->message : "not well-formed XML");
        stream->state.refused = 1;
        stream->error = *error;
        return 1;
    }
    return 0;
}

void alm_xml_stream_free(AlmXMLStream *stream) {
    if (!stream) return;
    if (stream->ctxt) {
        stream->ctxt->_private = NULL;
        xmlFreeParserCtxt(stream->ctxt);
    }
    free(stream);
}
