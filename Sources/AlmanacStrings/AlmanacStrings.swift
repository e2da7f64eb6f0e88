// AlmanacStrings: the layer below every other module, with no system library. It holds what
// reading and generating code for Apple's string formats needs: diagnostics and Almanac's messages,
// the catalog model, printf placeholders as `String(format:)` reads them, CLDR plural categories and
// a table of their rules (from ICU, generated), the `.strings` grammar, `.stringsdict` and
// `.xcstrings` reading, and the accessor generator. It depends on Foundation only, so that the
// StringAccessors plugin's tool builds on a Mac with nothing installed first. AlmanacICU and
// AlmanacCore re-export it: code that imports either sees these types as before. The catalog codecs
// (AlmanacCatalogs) build on these readers and add what needs ICU and libxml2: legacy charsets,
// located XML errors, writing, XLIFF.

// The byte tools (AlmanacBytes) come along: `JSONValue` is part of the models' vocabulary, and
// the readers here and above use the scanning, UTF-8 and digit tools.
@_exported public import AlmanacBytes
