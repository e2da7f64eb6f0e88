#!/usr/bin/env python3
"""Generate Sources/AlmanacCatalogs/Generated/TaiwanPhrases.swift and OpenCCTables.swift from OpenCC's dictionaries.

    python3 Scripts/opencc/generate.py          # rewrite the Swift table
    python3 Scripts/opencc/generate.py --check  # exit 1 when it is stale

The .txt files beside this script named as OpenCC's are OpenCC 1.4.2's data/dictionary/STPhrases.txt,
STCharacters.txt, TSCharacters.txt, TWPhrases.txt, TWPhrasesRev.txt, TWVariants.txt and TWVariantsPhrases.txt, unchanged, under the Apache License 2.0 (LICENSE here).
Source: the opencc-1.4.2.tar.gz sdist on PyPI,
sha256 47977905f131d7d9cfcec29fba5d841154907e1da73103105a4a68744e0f4f1a.
"""
import os, sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "Sources/AlmanacCatalogs/Generated/TaiwanPhrases.swift")
TABLES = os.path.join(ROOT, "Sources/AlmanacCatalogs/Generated/OpenCCTables.swift")

def read(name):
    pairs = []
    for line in open(os.path.join(HERE, name), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        key, values = line.split("\t", 1)
        # The first value is OpenCC's preferred one.
        pairs.append((key, values.split(" ")[0]))
    return pairs

def ambiguous(name):
    """Keys whose values include the key itself: words Taiwan also uses as they are."""
    keys = []
    for line in open(os.path.join(HERE, name), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        key, values = line.split("\t", 1)
        if key in values.split(" "):
            keys.append(key)
    return keys

def review():
    """TaiwanReview.txt: words the audit allows, and words it reports only as notes."""
    verdicts = {"allow": [], "note": []}
    for line in open(os.path.join(HERE, "TaiwanReview.txt"), encoding="utf-8"):
        line = line.rstrip("\n")
        if not line or line.startswith("#"):
            continue
        word, verdict, reason = line.split("\t")
        if verdict not in verdicts or not reason:
            sys.exit("TaiwanReview.txt: %r needs a verdict (allow or note) and a reason" % line)
        verdicts[verdict].append(word)
    def words(name, doc, items):
        return ("    /// %s\n    static let %s: Set<String> = [\n" % (doc, name)
                + "".join("        %s,\n" % literal(word) for word in items) + "    ]\n")
    return ("\n" + words("reviewedAllowed", "Words Taiwan's UIs write as they are (TaiwanReview.txt, with the reason for each).", verdicts["allow"])
            + "\n" + words("reviewedContextual", "Words right in some meanings only: notes, not warnings (TaiwanReview.txt).", verdicts["note"]))

def literal(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'

def table(name, pairs):
    body = ",\n".join("        (%s, %s)" % (literal(k), literal(v)) for k, v in pairs)
    return "    static let %s: [(String, String)] = [\n%s,\n    ]\n" % (name, body)

def values(name):
    """Every value of each key, in OpenCC's order."""
    entries = []
    for line in open(os.path.join(HERE, name), encoding="utf-8"):
        line = line.rstrip("\n")
        if line and not line.startswith("#"):
            key, rest = line.split("\t", 1)
            entries.append((key, rest.split(" ")))
    return entries

def block(name, doc, pairs):
    """A table as one string literal of `key<TAB>value` lines: tens of thousands of pairs compile in a
    second this way, where an array literal of them takes minutes to type-check."""
    body = "\n".join("%s\t%s" % (k, v) for k, v in pairs)
    assert '"""' not in body and "\\" not in body
    return '    /// %s\n    static let %s = """\n%s\n"""\n' % (doc, name, body)

def opencc_tables():
    """STCharacters, STPhrases and TSCharacters as the drafts and the script checks use them."""
    st_characters = values("STCharacters.txt")
    ts_characters = values("TSCharacters.txt")
    # A character is one script's only when OpenCC does not list it among its own forms in the other
    # (里 is 裏, 裡 and 里; 著 is no key of TSCharacters at all: both are right in either script).
    # Taiwan's variants count as the character's own forms (群: OpenCC writes 羣, Taiwan 群).
    taiwan = {k: v for k, v in read("TWVariants.txt")}
    simplified_only = sorted(k for k, vs in st_characters if k not in vs and k not in (taiwan.get(v) for v in vs))
    traditional_only = sorted(k for k, vs in ts_characters if k not in vs)
    first = {k: vs[0] for k, vs in st_characters}
    back = {k: vs[0] for k, vs in ts_characters}
    phrases = [(k, vs[0]) for k, vs in values("STPhrases.txt")]
    known = {k for k, _ in phrases}
    # What OpenCC builds as STPhrases_GeneratedFromRegionalPhrases: a Taiwan phrase whose Simplified form,
    # converted character by character, would not give the phrase's Traditional characters (so the Taiwan
    # list would never see it) becomes a phrase of the first step.
    regional = []
    for key, _ in read("TWPhrases.txt"):
        simplified = "".join(back.get(c, c) for c in key)
        if simplified not in known and simplified != key and "".join(first.get(c, c) for c in simplified) != key:
            regional.append((simplified, key))
            known.add(simplified)
    # Characters with more than one form in the other script (须: 須 or 鬚; Taiwan's variants are one form):
    # only a phrase decides them. A form outside the basic block of CJK ideographs (開's 𫔭, 買's 𧹒, rare
    # characters of the supplementary planes) is no form a UI text is written in, and is not counted.
    def common(v):
        return len(v) == 1 and 0x4E00 <= ord(v) <= 0x9FFF
    def forms(vs):
        return {taiwan.get(v, v) for v in vs if common(v)}
    ambiguous_simplified = sorted(k for k, vs in st_characters if len(forms(vs)) > 1)
    ambiguous_traditional = sorted(k for k, vs in ts_characters if len({v for v in vs if common(v)}) > 1)
    return (simplified_only, traditional_only, phrases + regional,
            [(k, vs[0]) for k, vs in st_characters], [(k, vs[0]) for k, vs in ts_characters],
            ambiguous_simplified, ambiguous_traditional)

def pure(pairs, simplified_only, characters):
    """OpenCC's Taiwan values with any Simplified-only character written in Traditional (its
    TWPhrases writes 類别範本, with the Simplified 别)."""
    mapping = dict(characters)
    bad = set(simplified_only)
    return [(k, "".join(mapping[c] if c in bad else c for c in v)) for k, v in pairs]

def main():
    simplified_only, traditional_only, st_phrases, st_characters, ts_characters, ambiguous_simplified, ambiguous_traditional = opencc_tables()
    taiwan = pure(read("AlmanacPhrases.txt") + read("TWPhrases.txt") + read("TWVariantsPhrases.txt"), simplified_only, st_characters)
    text = ("// Generated by Scripts/opencc/generate.py from OpenCC 1.4.2's TWPhrases.txt, TWPhrasesRev.txt,\n"
            "// TWVariants.txt and TWVariantsPhrases.txt (Apache License 2.0, Copyright Carbo Kuo and contributors;\n"
            "// see Scripts/opencc/LICENSE), with Almanac's additions and review from Scripts/opencc/AlmanacPhrases.txt,\n"
            "// AlmanacDrafts.txt and TaiwanReview.txt.\n"
            "// Do not edit.\n\n"
            "/// Taiwan vocabulary: mainland terms (in Traditional characters) and the words Taiwan uses\n"
            "/// instead, the reverse, and Taiwan's preferred character variants.\n"
            "enum TaiwanPhrases {\n"
            + "    /// Mainland words (Almanac's and OpenCC's) and the Taiwan words for them: drafts and the audit.\n"
            + table("toTaiwan", taiwan) + "\n"
            + "    /// Word choices for drafts only, ahead of `toTaiwan` (AlmanacDrafts.txt).\n"
            + table("draftWords", [(k, v) for k, v in read("AlmanacDrafts.txt") if not k.startswith(("=", "~"))]) + "\n"
            + "    /// Characters drafts write in another form than OpenCC's, wherever they stand (AlmanacDrafts.txt's `~` lines).\n"
            + table("draftCharacters", [(k[1:], v) for k, v in read("AlmanacDrafts.txt") if k.startswith("~")]) + "\n"
            + "    /// Whole texts drafts write otherwise (a settings tab's 通用 is 一般; AlmanacDrafts.txt's `=` lines).\n"
            + table("draftWholeTexts", [(k[1:], v) for k, v in read("AlmanacDrafts.txt") if k.startswith("=")]) + "\n"
            + table("fromTaiwan", read("TWPhrasesRev.txt")) + "\n"
            + table("variants", read("TWVariants.txt")) + "\n"
            + "    /// Mainland words Taiwan also writes as they are (OpenCC lists them as one of their own values).\n"
            + "    static let alsoTaiwan: Set<String> = [\n" + ",\n".join("        " + literal(k) for k in ambiguous("TWPhrases.txt")) + ",\n    ]\n"
            + review()
            + "}\n")
    tables = ("// Generated by Scripts/opencc/generate.py from OpenCC 1.4.2's STPhrases.txt, STCharacters.txt,\n"
              "// TSCharacters.txt and TWPhrases.txt (Apache License 2.0, Copyright Carbo Kuo and contributors; see\n"
              "// Scripts/opencc/LICENSE).\n"
              "// Do not edit.\n\n"
              "/// OpenCC's tables for Simplified to Traditional Chinese, one `key<TAB>value` pair a line.\n"
              "enum OpenCCTables {\n"
              + block("simplifiedPhrases", "Simplified phrases and their Traditional form (STPhrases, then the Taiwan list's phrases\n"
                      "    /// that character-by-character conversion would miss).", st_phrases) + "\n"
              + block("simplifiedCharacters", "Each Simplified character's first Traditional form (STCharacters).", st_characters) + "\n"
              + block("traditionalCharacters", "Each Traditional character's first Simplified form (TSCharacters).", ts_characters) + "\n"
              + "    /// Characters only Simplified Chinese writes: OpenCC does not list them among their own Traditional forms.\n"
              + "    static let simplifiedOnly = %s\n\n" % literal("".join(simplified_only))
              + "    /// Characters only Traditional Chinese writes: OpenCC does not list them among their own Simplified forms.\n"
              + "    static let traditionalOnly = %s\n\n" % literal("".join(traditional_only))
              + "    /// Simplified characters with several Traditional forms (须: 須 or 鬚): a phrase decides which.\n"
              + "    static let ambiguousSimplified = %s\n\n" % literal("".join(ambiguous_simplified))
              + "    /// Traditional characters with several Simplified forms (乾: 干 or 乾): a phrase decides which.\n"
              + "    static let ambiguousTraditional = %s\n" % literal("".join(ambiguous_traditional))
              + "}\n")
    outputs = {OUT: text, TABLES: tables}
    if "--check" in sys.argv:
        for path, content in outputs.items():
            current = open(path, encoding="utf-8").read() if os.path.exists(path) else ""
            if current != content:
                sys.exit("%s is stale: run python3 Scripts/opencc/generate.py" % os.path.relpath(path, ROOT))
        return
    for path, content in outputs.items():
        open(path, "w", encoding="utf-8").write(content)

main()
