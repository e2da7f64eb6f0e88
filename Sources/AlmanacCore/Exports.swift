// Placeholders and plural categories live in AlmanacStrings (no system libraries); every module
// that imports Core sees them as before.
@_exported public import AlmanacStrings
