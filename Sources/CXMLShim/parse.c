#include "require_libxml2.h"
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <libxml/parser.h>
#include <libxml/parserInternals.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/SAX2.h>
#include "CXMLShim.h"
#include "internal.h"

// MARK: Global set-up

static xmlParserInputPtr refuse_external_entity(const char *url, const char *id, xmlParserCtxtPtr context) {
    (void)url;
    (void)id;
    (void)context;
    // Nothing outside the document is ever read: no DTDs, no external entities, no network.
    return NULL;
}

static pthread_once_t setup_once = PTHREAD_ONCE_INIT;

static void setup(void) {
    xmlInitParser();
    xmlSetExternalEntityLoader(refuse_external_entity);
}

void alm_xml_setup(void) { pthread_once(&setup_once, setup); }

// MARK: Parsing

typedef AlmParseState ParseState;

void alm_set_error(AlmXMLError *error, int32_t kind, int32_t line, int32_t column, const char *message) {
    if (!error || error->kind != ALM_XML_OK) return;
    error->kind = kind;
    error->line = line;
    error->column = column;
    snprintf(error->message, sizeof(error->message), "%s", message);
    // libxml2's messages end with a newline.
    size_t length = strlen(error->message);
    while (length > 0 && (error->message[length - 1] == '\n' || error->message[length - 1] == ' ')) {
        error->message[--length] = 0;
    }
}

void alm_refuse_entity_declaration(void *context, const xmlChar *name, int type, const xmlChar *publicId,
                                   const xmlChar *systemId, xmlChar *content) {
    (void)type;
    (void)publicId;
    (void)systemId;
    (void)content;
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)context;
    ParseState *state = (ParseState *)ctxt->_private;
    char message[300];
    snprintf(message, sizeof(message),
             "the document declares the entity '%s'; entity declarations are refused (they enable "
             "billion-laughs and external-entity attacks)",
             name ? (const char *)name : "?");
    alm_set_error(state->error, ALM_XML_ENTITY_DECLARATION, xmlSAX2GetLineNumber(ctxt), xmlSAX2GetColumnNumber(ctxt),
              message);
    state->refused = 1;
    xmlStopParser(ctxt);
}

void alm_refuse_undefined_reference(void *context, const xmlChar *name) {
    // Only entities the document does not define reach this callback (declarations are refused
    // and the predefined ones are plain characters): their text would silently vanish.
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)context;
    ParseState *state = (ParseState *)ctxt->_private;
    char message[300];
    snprintf(message, sizeof(message), "the document refers to the entity '&%s;', which it does not define",
             name ? (const char *)name : "?");
    alm_set_error(state->error, ALM_XML_MALFORMED, xmlSAX2GetLineNumber(ctxt), xmlSAX2GetColumnNumber(ctxt), message);
    state->refused = 1;
    xmlStopParser(ctxt);
}

int alm_refuse_too_deep(xmlParserCtxtPtr ctxt, AlmParseState *state) {
    // nameNr counts the open ancestors of the element starting now.
    if (ctxt->nameNr < state->maxDepth) return 0;
    char message[200];
    snprintf(message, sizeof(message), "elements are nested more than %d deep", state->maxDepth);
    alm_set_error(state->error, ALM_XML_TOO_DEEP, xmlSAX2GetLineNumber(ctxt), xmlSAX2GetColumnNumber(ctxt), message);
    state->refused = 1;
    xmlStopParser(ctxt);
    return 1;
}

static void limited_start_element(void *context, const xmlChar *localname, const xmlChar *prefix, const xmlChar *URI,
                                  int nb_namespaces, const xmlChar **namespaces, int nb_attributes, int nb_defaulted,
                                  const xmlChar **attributes) {
    xmlParserCtxtPtr ctxt = (xmlParserCtxtPtr)context;
    ParseState *state = (ParseState *)ctxt->_private;
    if (alm_refuse_too_deep(ctxt, state)) return;
    state->startElement(context, localname, prefix, URI, nb_namespaces, namespaces, nb_attributes, nb_defaulted,
                        attributes);
}

AlmXMLDocument *alm_xml_parse(const uint8_t *bytes, int64_t length, int32_t maxDepth, int64_t maxBytes,
                              AlmXMLError *error) {
    alm_xml_setup();
    memset(error, 0, sizeof(*error));
    if (length > maxBytes || length > INT32_MAX) {
        char message[200];
        snprintf(message, sizeof(message), "the document is %lld bytes, more than the limit of %lld",
                 (long long)length, (long long)maxBytes);
        alm_set_error(error, ALM_XML_TOO_LARGE, 0, 0, message);
        return NULL;
    }
    xmlParserCtxtPtr ctxt = xmlNewParserCtxt();
    if (!ctxt) {
        alm_set_error(error, ALM_XML_OUT_OF_MEMORY, 0, 0, "out of memory");
        return NULL;
    }
    ParseState state = {ctxt->sax->startElementNs, maxDepth, error, 0};
    ctxt->_private = &state;
    ctxt->sax->entityDecl = alm_refuse_entity_declaration;
    ctxt->sax->reference = alm_refuse_undefined_reference;
    // libxml2 stops at 256 levels on its own; stay below so our clearer error comes first.
    if (maxDepth > 255 || maxDepth < 1) state.maxDepth = 255;
    ctxt->sax->startElementNs = limited_start_element;
    // No XML_PARSE_NOENT (no entity substitution), no DTDLOAD/DTDATTR/DTDVALID (no external DTD),
    // NONET (no network), no HUGE (libxml2 keeps its own size and depth limits too).
    int options = XML_PARSE_NONET | XML_PARSE_NOWARNING | XML_PARSE_NOERROR;
    xmlDocPtr document = xmlCtxtReadMemory(ctxt, (const char *)bytes, (int)length, NULL, NULL, options);
    if (state.refused) {
        if (document) xmlFreeDoc(document);
        document = NULL;
    } else if (!document || !ctxt->wellFormed) {
        const xmlError *last = xmlCtxtGetLastError(ctxt);
        if (last && last->message) {
            alm_set_error(error, ALM_XML_MALFORMED, last->line, last->int2, last->message);
        } else {
            alm_set_error(error, ALM_XML_MALFORMED, 0, 0, "not well-formed XML");
        }
        if (document) xmlFreeDoc(document);
        document = NULL;
    } else if (!xmlDocGetRootElement(document)) {
        alm_set_error(error, ALM_XML_MALFORMED, 1, 1, "the document has no root element");
        xmlFreeDoc(document);
        document = NULL;
    }
    ctxt->_private = NULL;
    xmlFreeParserCtxt(ctxt);
    return (AlmXMLDocument *)document;
}

void alm_xml_free(AlmXMLDocument *document) {
    if (document) xmlFreeDoc((xmlDocPtr)document);
}

const AlmXMLNode *alm_xml_root(const AlmXMLDocument *document) {
    return (const AlmXMLNode *)xmlDocGetRootElement((xmlDocPtr)document);
}

const AlmXMLNode *alm_xml_document_first(const AlmXMLDocument *document) {
    return (const AlmXMLNode *)((xmlDocPtr)document)->children;
}

int alm_xml_doctype(const AlmXMLDocument *document, const char **name, const char **publicID, const char **systemID) {
    xmlDtdPtr dtd = ((xmlDocPtr)document)->intSubset;
    if (!dtd) return 0;
    *name = (const char *)dtd->name;
    *publicID = (const char *)dtd->ExternalID;
    *systemID = (const char *)dtd->SystemID;
    return 1;
}

void alm_xml_declaration(const AlmXMLDocument *document, const char **version, const char **encoding, int *standalone) {
    xmlDocPtr doc = (xmlDocPtr)document;
    *version = (const char *)doc->version;
    *encoding = (const char *)doc->encoding;
    *standalone = doc->standalone;
}

// MARK: Nodes

int alm_xml_node_type(const AlmXMLNode *node) { return (int)((xmlNodePtr)node)->type; }

const char *alm_xml_node_name(const AlmXMLNode *node) { return (const char *)((xmlNodePtr)node)->name; }

const char *alm_xml_node_prefix(const AlmXMLNode *node) {
    xmlNsPtr ns = ((xmlNodePtr)node)->ns;
    return ns ? (const char *)ns->prefix : NULL;
}

const char *alm_xml_node_namespace(const AlmXMLNode *node) {
    xmlNsPtr ns = ((xmlNodePtr)node)->ns;
    return ns ? (const char *)ns->href : NULL;
}

const char *alm_xml_node_content(const AlmXMLNode *node) { return (const char *)((xmlNodePtr)node)->content; }

int32_t alm_xml_node_line(const AlmXMLNode *node) { return (int32_t)xmlGetLineNo((xmlNodePtr)node); }

const AlmXMLNode *alm_xml_node_first_child(const AlmXMLNode *node) {
    xmlNodePtr n = (xmlNodePtr)node;
    // Entity references have the entity's own nodes as children; those are not the document's.
    if (n->type == XML_ENTITY_REF_NODE) return NULL;
    return (const AlmXMLNode *)n->children;
}

const AlmXMLNode *alm_xml_node_next(const AlmXMLNode *node) { return (const AlmXMLNode *)((xmlNodePtr)node)->next; }

const AlmXMLAttribute *alm_xml_first_attribute(const AlmXMLNode *node) {
    xmlNodePtr n = (xmlNodePtr)node;
    return n->type == XML_ELEMENT_NODE ? (const AlmXMLAttribute *)n->properties : NULL;
}

const AlmXMLAttribute *alm_xml_next_attribute(const AlmXMLAttribute *attribute) {
    return (const AlmXMLAttribute *)((xmlAttrPtr)attribute)->next;
}

const char *alm_xml_attribute_name(const AlmXMLAttribute *attribute) {
    return (const char *)((xmlAttrPtr)attribute)->name;
}

const char *alm_xml_attribute_prefix(const AlmXMLAttribute *attribute) {
    xmlNsPtr ns = ((xmlAttrPtr)attribute)->ns;
    return ns ? (const char *)ns->prefix : NULL;
}

const char *alm_xml_attribute_namespace(const AlmXMLAttribute *attribute) {
    xmlNsPtr ns = ((xmlAttrPtr)attribute)->ns;
    return ns ? (const char *)ns->href : NULL;
}

char *alm_xml_attribute_value(const AlmXMLAttribute *attribute) {
    xmlAttrPtr attr = (xmlAttrPtr)attribute;
    return (char *)xmlNodeListGetString(attr->doc, attr->children, 1);
}

void alm_xml_string_free(char *text) {
    if (text) xmlFree(text);
}

const AlmXMLNamespace *alm_xml_first_namespace(const AlmXMLNode *node) {
    xmlNodePtr n = (xmlNodePtr)node;
    return n->type == XML_ELEMENT_NODE ? (const AlmXMLNamespace *)n->nsDef : NULL;
}

const AlmXMLNamespace *alm_xml_next_namespace(const AlmXMLNamespace *ns) {
    return (const AlmXMLNamespace *)((xmlNsPtr)ns)->next;
}

const char *alm_xml_namespace_prefix(const AlmXMLNamespace *ns) { return (const char *)((xmlNsPtr)ns)->prefix; }

const char *alm_xml_namespace_uri(const AlmXMLNamespace *ns) { return (const char *)((xmlNsPtr)ns)->href; }
