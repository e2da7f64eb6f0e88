// Plain-C wrappers over libxml2 for Almanac's XML formats (plists, XLIFF, xCal).
//
// Why this exists: Debian's libxml2 headers include ICU's, which clash with the ICU that Foundation
// bundles (ARCHITECTURE.md fact 2). Swift sees only this header: opaque handles and UTF-8 strings.
//
// Safety: parsing never touches the network or the file system (no external entities, no DTD
// loading), refuses DTD entity declarations (billion laughs, XXE) and limits depth and size.
#ifndef ALMANAC_CXMLSHIM_H
#define ALMANAC_CXMLSHIM_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct AlmXMLDocument AlmXMLDocument;
typedef struct AlmXMLNode AlmXMLNode;
typedef struct AlmXMLAttribute AlmXMLAttribute;
typedef struct AlmXMLNamespace AlmXMLNamespace;

enum {
    ALM_XML_OK = 0,
    ALM_XML_MALFORMED = 1,
    ALM_XML_ENTITY_DECLARATION = 2,
    ALM_XML_TOO_DEEP = 3,
    ALM_XML_TOO_LARGE = 4,
    ALM_XML_OUT_OF_MEMORY = 5,
};

typedef struct AlmXMLError {
    int32_t kind;     // one of the ALM_XML_ values
    int32_t line;     // 1-based, 0 when unknown
    int32_t column;   // 1-based, 0 when unknown
    char message[512];
} AlmXMLError;

/// Parses a whole document. Returns NULL and fills `error` on failure. `maxDepth` is at most 255
/// (libxml2's own limit is 256).
AlmXMLDocument *alm_xml_parse(const uint8_t *bytes, int64_t length, int32_t maxDepth, int64_t maxBytes,
                              AlmXMLError *error);
void alm_xml_free(AlmXMLDocument *document);

/// The root element.
const AlmXMLNode *alm_xml_root(const AlmXMLDocument *document);
/// The first node of the document (prolog comments and processing instructions come before the root).
const AlmXMLNode *alm_xml_document_first(const AlmXMLDocument *document);
/// The document's DOCTYPE, if any: returns 1 and sets the UTF-8 strings (any may be NULL).
int alm_xml_doctype(const AlmXMLDocument *document, const char **name, const char **publicID, const char **systemID);
/// The XML declaration's version, encoding (as declared) and standalone (-1 absent, 0 no, 1 yes).
void alm_xml_declaration(const AlmXMLDocument *document, const char **version, const char **encoding, int *standalone);

enum {
    ALM_XML_ELEMENT = 1,
    ALM_XML_TEXT = 3,
    ALM_XML_CDATA = 4,
    ALM_XML_ENTITY_REFERENCE = 5,
    ALM_XML_PROCESSING_INSTRUCTION = 7,
    ALM_XML_COMMENT = 8,
    ALM_XML_DOCTYPE = 14,
};

int alm_xml_node_type(const AlmXMLNode *node);
/// The local name (element) or target (processing instruction).
const char *alm_xml_node_name(const AlmXMLNode *node);
/// The namespace prefix and URI of an element, or NULL.
const char *alm_xml_node_prefix(const AlmXMLNode *node);
const char *alm_xml_node_namespace(const AlmXMLNode *node);
/// The text of a text, CDATA, comment or processing-instruction node.
const char *alm_xml_node_content(const AlmXMLNode *node);
int32_t alm_xml_node_line(const AlmXMLNode *node);
const AlmXMLNode *alm_xml_node_first_child(const AlmXMLNode *node);
const AlmXMLNode *alm_xml_node_next(const AlmXMLNode *node);

const AlmXMLAttribute *alm_xml_first_attribute(const AlmXMLNode *node);
const AlmXMLAttribute *alm_xml_next_attribute(const AlmXMLAttribute *attribute);
const char *alm_xml_attribute_name(const AlmXMLAttribute *attribute);
const char *alm_xml_attribute_prefix(const AlmXMLAttribute *attribute);
const char *alm_xml_attribute_namespace(const AlmXMLAttribute *attribute);
/// The attribute's value (entities resolved); free with alm_xml_string_free.
char *alm_xml_attribute_value(const AlmXMLAttribute *attribute);
void alm_xml_string_free(char *text);

/// Namespace declarations made on an element (xmlns and xmlns:prefix).
const AlmXMLNamespace *alm_xml_first_namespace(const AlmXMLNode *node);
const AlmXMLNamespace *alm_xml_next_namespace(const AlmXMLNamespace *ns);
const char *alm_xml_namespace_prefix(const AlmXMLNamespace *ns);
const char *alm_xml_namespace_uri(const AlmXMLNamespace *ns);

// MARK: Writing

typedef struct AlmXMLWriter AlmXMLWriter;

/// A writer into memory. Every call returns < 0 on failure.
AlmXMLWriter *alm_xml_writer_open(void);
void alm_xml_writer_free(AlmXMLWriter *writer);
int alm_xml_writer_start_document(AlmXMLWriter *writer, const char *version, const char *encoding, int standalone);
int alm_xml_writer_doctype(AlmXMLWriter *writer, const char *name, const char *publicID, const char *systemID);
int alm_xml_writer_start_element(AlmXMLWriter *writer, const char *qualifiedName);
int alm_xml_writer_attribute(AlmXMLWriter *writer, const char *qualifiedName, const char *value);
int alm_xml_writer_text(AlmXMLWriter *writer, const char *text);
int alm_xml_writer_cdata(AlmXMLWriter *writer, const char *text);
int alm_xml_writer_comment(AlmXMLWriter *writer, const char *text);
int alm_xml_writer_processing_instruction(AlmXMLWriter *writer, const char *target, const char *content);
/// Writes text that is already XML (whitespace between elements), unescaped.
int alm_xml_writer_raw(AlmXMLWriter *writer, const char *text);
/// Writes `length` bytes that are already XML (a part of the document another writer made), unescaped.
int alm_xml_writer_raw_bytes(AlmXMLWriter *writer, const unsigned char *bytes, int length);
/// Ends the element; an empty one is written <a/> unless `full` asks for <a></a>.
int alm_xml_writer_end_element(AlmXMLWriter *writer, int full);
int alm_xml_writer_end_document(AlmXMLWriter *writer);
/// Writes out what the writer holds (for a fragment written without a document).
int alm_xml_writer_flush(AlmXMLWriter *writer);
/// Forgets the bytes written so far (after the caller took them with alm_xml_writer_bytes); the
/// writer goes on where it was, for a document written in pieces.
void alm_xml_writer_clear(AlmXMLWriter *writer);
/// The bytes written so far (valid until the next call on the writer).
const uint8_t *alm_xml_writer_bytes(AlmXMLWriter *writer, int64_t *length);

#ifdef __cplusplus
}
#endif

#endif
