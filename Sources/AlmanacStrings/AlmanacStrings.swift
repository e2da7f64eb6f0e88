// AlmanacStrings: what reading Apple's string formats needs and nothing that needs a system
// library — printf placeholders as `String(format:)` reads them, and CLDR's plural categories.
// It depends on the Swift standard library only, so that a build-tool plugin's generator can be
// built on a Mac with nothing installed first (see the StringAccessors plugin). AlmanacICU and
// AlmanacCore re-export it: code that imports either sees these types as before.
