#include "require_libxml2.h"
#include <libxml/xmlwriter.h>
#include <libxml/xmlsave.h>
#include <stdlib.h>
#include "CXMLShim.h"

struct AlmXMLWriter {
    xmlBufferPtr buffer;
    xmlTextWriterPtr writer;
};

AlmXMLWriter *alm_xml_writer_open(void) {
    AlmXMLWriter *result = (AlmXMLWriter *)calloc(1, sizeof(AlmXMLWriter));
    if (!result) return NULL;
    result->buffer = xmlBufferCreate();
    result->writer = result->buffer ? xmlNewTextWriterMemory(result->buffer, 0) : NULL;
    if (!result->writer) {
        if (result->buffer) xmlBufferFree(result->buffer);
        free(result);
        return NULL;
    }
    // Whitespace is the caller's: indentation is written as text so a round trip keeps it.
    xmlTextWriterSetIndent(result->writer, 0);
    xmlTextWriterSetQuoteChar(result->writer, '"');
    return result;
}

void alm_xml_writer_free(AlmXMLWriter *writer) {
    if (!writer) return;
    xmlFreeTextWriter(writer->writer);
    xmlBufferFree(writer->buffer);
    free(writer);
}

int alm_xml_writer_start_document(AlmXMLWriter *writer, const char *version, const char *encoding, int standalone) {
    const char *flag = standalone < 0 ? NULL : (standalone ? "yes" : "no");
    return xmlTextWriterStartDocument(writer->writer, version, encoding, flag);
}

int alm_xml_writer_doctype(AlmXMLWriter *writer, const char *name, const char *publicID, const char *systemID) {
    return xmlTextWriterWriteDTD(writer->writer, (const xmlChar *)name, (const xmlChar *)publicID,
                                 (const xmlChar *)systemID, NULL);
}

int alm_xml_writer_start_element(AlmXMLWriter *writer, const char *qualifiedName) {
    return xmlTextWriterStartElement(writer->writer, (const xmlChar *)qualifiedName);
}

int alm_xml_writer_attribute(AlmXMLWriter *writer, const char *qualifiedName, const char *value) {
    return xmlTextWriterWriteAttribute(writer->writer, (const xmlChar *)qualifiedName, (const xmlChar *)value);
}

int alm_xml_writer_text(AlmXMLWriter *writer, const char *text) {
    return xmlTextWriterWriteString(writer->writer, (const xmlChar *)text);
}

int alm_xml_writer_cdata(AlmXMLWriter *writer, const char *text) {
    return xmlTextWriterWriteCDATA(writer->writer, (const xmlChar *)text);
}

int alm_xml_writer_comment(AlmXMLWriter *writer, const char *text) {
    return xmlTextWriterWriteComment(writer->writer, (const xmlChar *)text);
}

int alm_xml_writer_processing_instruction(AlmXMLWriter *writer, const char *target, const char *content) {
    return xmlTextWriterWritePI(writer->writer, (const xmlChar *)target, (const xmlChar *)content);
}

int alm_xml_writer_raw(AlmXMLWriter *writer, const char *text) {
    return xmlTextWriterWriteRaw(writer->writer, (const xmlChar *)text);
}

int alm_xml_writer_raw_bytes(AlmXMLWriter *writer, const unsigned char *bytes, int length) {
    // Given its length: the bytes need no terminator, and may hold none.
    if (length < 0) return -1;
    if (length == 0) return xmlTextWriterWriteRaw(writer->writer, (const xmlChar *)"");
    return xmlTextWriterWriteRawLen(writer->writer, (const xmlChar *)bytes, length);
}

int alm_xml_writer_end_element(AlmXMLWriter *writer, int full) {
    // An empty element is written <a/> unless `full` asks for <a></a> (plists write <string></string>).
    return full ? xmlTextWriterFullEndElement(writer->writer) : xmlTextWriterEndElement(writer->writer);
}

int alm_xml_writer_end_document(AlmXMLWriter *writer) {
    int result = xmlTextWriterEndDocument(writer->writer);
    xmlTextWriterFlush(writer->writer);
    return result;
}

const uint8_t *alm_xml_writer_bytes(AlmXMLWriter *writer, int64_t *length) {
    xmlTextWriterFlush(writer->writer);
    *length = (int64_t)xmlBufferLength(writer->buffer);
    return (const uint8_t *)xmlBufferContent(writer->buffer);
}

int alm_xml_writer_flush(AlmXMLWriter *writer) {
    return xmlTextWriterFlush(writer->writer);
}

void alm_xml_writer_clear(AlmXMLWriter *writer) {
    xmlTextWriterFlush(writer->writer);
    xmlBufferEmpty(writer->buffer);
}
