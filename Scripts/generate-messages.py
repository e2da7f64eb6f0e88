#!/usr/bin/env python3
"""Generate each module's message table from Locales/Almanac/*.lproj/Almanac.strings.

    python3 Scripts/generate-messages.py            # rewrite the tables
    python3 Scripts/generate-messages.py --check    # exit 1 if a table is stale (CI and tests)

The catalogs are the single source of Almanac's own messages in en, zh-Hans and zh-Hant. Each
module owns the keys of its prefixes (PREFIXES below: `ics.` is AlmanacICalendar's) and gets them
compiled in as `Sources/MODULE/Generated/Messages.swift`: the table, and a typed factory on `Message` for each
of its keys, named after the key with its arguments named as the English catalog names them
(`"recurrence.capped" = "…"; /* arguments: title, limit */` gives `Message.recurrenceCapped(title:limit:)`),
so a misspelt key or a missing argument does not compile; AlmanacCore holds the rest (`convert.`, `output.`...) and every key that
another module's sources also use (a shared message), in `Sources/AlmanacStrings/Generated/CoreMessages.swift` (the
module below every other, with no system library, so the accessor generator can render them too).
A module uses a message through its factory (`.error(.recurrenceCapped(title: t, limit: n))`); a key
is written as a string only where it is made from data (`Message(key: "audit." + check, ...)`),
and such a literal must name a key that exists: the check fails otherwise. A whole key written as
a literal anywhere else in Sources (a code compared or listed by its spelling) fails it too.
A message that reports a loss says so in its catalog entry's comment (`; reports a loss`), and its
table carries that (`Message.reportsLoss`): no module lists another's codes.

This reader handles the subset of the .strings grammar these files use ("key" = "value"; with
\\" \\\\ \\n escapes and /* */ comments); the catalog codec reads the full grammar.
"""
import os, re, sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
LANGUAGES = [("en", "english"), ("zh-Hans", "simplifiedChinese"), ("zh-Hant", "traditionalChinese")]
ENTRY = re.compile(r'"((?:[^"\\]|\\.)*)"\s*=\s*"((?:[^"\\]|\\.)*)"\s*;')
CORE = "AlmanacCore"
# The prefixes each module owns; any other prefix is Core's.
PREFIXES = {
    "AlmanacCalendar": ["recurrence", "timezone"],
    "AlmanacICalendar": ["ics", "jcal", "xcal"],
    "AlmanacCSV": ["csv", "table", "ledger"],
    "AlmanacXLSX": ["xlsx"],
    "AlmanacCatalogs": ["catalog", "strings", "stringsdict", "xcstrings", "xliff", "plist"],
    "AlmanacAndroid": ["android"],
    "AlmanacAudit": ["audit"],
    "AlmanacBackups": ["backup"],
    "AlmanacKit": ["batch", "manifest"],
    "AlmanacCLI": ["cli", "expand", "formats", "inspect", "locale", "lunar"],
}
# The names of a message's arguments, in a comment after its entry in en.
ARGUMENTS = re.compile(r'^"((?:[^"\\]|\\.)*)"\s*=\s*"(?:[^"\\]|\\.)*"\s*;\s*/\*\s*arguments:\s*(.*?)\s*\*/\s*$')
# The end of that comment for a message that reports a loss: `/* arguments: row, text; reports a loss */`.
LOSS_MARK = "; reports a loss"
SWIFT_KEYWORDS = {"in", "for", "if", "else", "default", "case", "return", "protocol", "as", "is", "func", "let", "var", "self", "true", "false"}
# A string literal that looks like a message key.
LITERAL = re.compile(r'"([a-z]+(?:\.[a-z0-9-]+)+)"')
# A member named after a key: `.icsBrokenLine`, `Message.recurrenceCapped(`.
MEMBER = re.compile(r'\.([a-z]+[A-Z][A-Za-z0-9]*)\b')
# A literal key given to a message or diagnostic: it must exist.
KEY_USE = re.compile(r'(?:\bMessage\(key:|\bMessage\(|\.error\(|\.warning\(|\.note\(|\bL\(|\.text\()\s*"([a-z]+(?:\.[a-z0-9-]+)+)"')


def unescape(text):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), text)


def read(language):
    path = os.path.join(ROOT, "Locales/Almanac/%s.lproj/Almanac.strings" % language)
    text = open(path, encoding="utf-8").read()
    # Comments outside quoted strings only: a message may itself mention /* and */.
    text = re.sub(r'"(?:[^"\\]|\\.)*"|/\*.*?\*/', lambda m: m.group(0) if m.group(0).startswith('"') else '', text, flags=re.S)
    entries = {}
    for match in ENTRY.finditer(text):
        key, value = unescape(match.group(1)), unescape(match.group(2))
        if key in entries:
            sys.exit("%s: duplicate key %s" % (path, key))
        entries[key] = value
    return entries


def swift_literal(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def placeholders(text):
    """How many arguments a text takes: the highest position named (%2$@), else the count of
    plain placeholders; %% is a percent sign."""
    plain, positions = 0, [0]
    for match in re.finditer(r'%%|%(\d+\$)?[@ds]', text):
        if match.group(0) == "%%":
            continue
        if match.group(1):
            positions.append(int(match.group(1)[:-1]))
        else:
            plain += 1
    return max(positions) if max(positions) > 0 else plain


def read_arguments():
    """Each key's argument names, from the comments after the entries of the English catalog, and
    the keys whose comment says they report a loss."""
    path = os.path.join(ROOT, "Locales/Almanac/en.lproj/Almanac.strings")
    names = {}
    losses = set()
    for number, line in enumerate(open(path, encoding="utf-8"), 1):
        match = ARGUMENTS.match(line.strip())
        if match:
            listed = match.group(2)
            if listed.endswith(LOSS_MARK):
                losses.add(unescape(match.group(1)))
                listed = listed[:-len(LOSS_MARK)]
            names[unescape(match.group(1))] = [name.strip() for name in listed.split(",")]
            for name in names[unescape(match.group(1))]:
                if not re.fullmatch(r"[a-z][A-Za-z0-9]*", name) or name in SWIFT_KEYWORDS:
                    sys.exit("%s:%d: %r is not an argument name (lowerCamelCase, not a Swift keyword)" % (path, number, name))
    return names, losses


def output_path(module):
    if module == CORE:
        return os.path.join(ROOT, "Sources/AlmanacStrings/Generated/CoreMessages.swift")
    return os.path.join(ROOT, "Sources/%s/Generated/Messages.swift" % module)


def used_keys(module, known, undefined):
    """The message keys a module's sources use — through their factory or code (`.icsBrokenLine`)
    or as a literal — with where each is first used (its generated table excluded); literal keys
    given to a message that no catalog defines go into `undefined`."""
    members = {member_name(key): key for key in known}
    found = {}
    folder = os.path.join(ROOT, "Sources", module)
    for directory, _, names in os.walk(folder):
        for name in sorted(names):
            path = os.path.join(directory, name)
            if not name.endswith(".swift") or path in (output_path(module), output_path(CORE)):
                continue
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                where = "%s:%d" % (os.path.relpath(path, ROOT), number)
                for match in LITERAL.finditer(line):
                    if match.group(1) in known:
                        found.setdefault(match.group(1), where)
                # A comment that names a factory (`.recurrenceCapped(title:limit:)`) does not use it.
                for match in MEMBER.finditer("" if line.lstrip().startswith("//") else line):
                    if match.group(1) in members:
                        found.setdefault(members[match.group(1)], where)
                for match in KEY_USE.finditer(line):
                    # internal.* codes mark diagnostics that are caught and never shown.
                    if match.group(1) not in known and not match.group(1).startswith("internal."):
                        undefined.append("%s: %s" % (where, match.group(1)))
    return found


def spelled_codes(known):
    """Where a source outside the generated tables writes a message key as a string literal
    (`"xlsx.title-row"`): logic that compares codes, or lists them, by spelling. Codes are compared
    with their generated members (`.xlsxTitleRow`), and what a code means (that it reports a
    loss) is said in the catalog, so none should be: each is named with its file and line."""
    found = []
    for directory, _, names in os.walk(os.path.join(ROOT, "Sources")):
        if os.path.basename(directory) == "Generated":
            continue
        for name in sorted(names):
            if not name.endswith(".swift"):
                continue
            path = os.path.join(directory, name)
            for number, line in enumerate(open(path, encoding="utf-8"), 1):
                for match in LITERAL.finditer(line):
                    if match.group(1) in known:
                        found.append("%s:%d: %s" % (os.path.relpath(path, ROOT), number, match.group(0)))
    return found


def owner(key):
    prefix = key.split(".", 1)[0]
    for module, prefixes in PREFIXES.items():
        if prefix in prefixes:
            return module
    return CORE


def table_lines(name, tables, keys, indent, losses):
    lines = []
    for language, label in LANGUAGES:
        lines.append(indent + "%s: [" % label)
        for key in sorted(keys):
            lines.append(indent + "    %s: %s," % (swift_literal(key), swift_literal(tables[language][key])))
        lines.append(indent + "],")
    reporting = sorted(keys & losses)
    if reporting:
        lines.append(indent + "reportingLoss: [%s]" % ", ".join(swift_literal(key) for key in reporting))
    else:
        lines[-1] = lines[-1].rstrip(",")
    return lines


def member_name(key):
    """`ics.broken-line` → `icsBrokenLine`: the name a key's code has in Swift."""
    words = re.split(r"[.\-]", key)
    return words[0] + "".join(word[:1].upper() + word[1:] for word in words[1:])


def code_lines(keys, access):
    """Each key's code as a static member of DiagnosticCode, for logic that tells codes apart."""
    names = {}
    for key in sorted(keys):
        name = member_name(key)
        if name in names:
            sys.exit("the keys %s and %s would have the same code name %s" % (names[name], key, name))
        names[name] = key
    lines = ["", "// Every code of this table by name: logic compares codes with these, never with their spelling (public:",
             "// a program using Almanac tells diagnostics apart the same way).",
             "extension DiagnosticCode {"]
    lines += ["    %sstatic let %s: DiagnosticCode = %s" % (access, name, swift_literal(key)) for name, key in sorted(names.items())]
    lines.append("}")
    return lines


def doc_text(text):
    """A message's English text as one line of a doc comment."""
    return " ".join(text.split())


def factory_lines(keys, tables, arguments, access, table):
    """Each key's typed factory on Message: its arguments by name, or a property when it has none."""
    lines = ["", "// Every message of this table, made by name: a misspelt key or a missing argument does not compile.",
             "extension Message {"]
    for key in sorted(keys):
        names = arguments.get(key, [])
        lines.append("    /// %s" % doc_text(tables["en"][key]))
        if names:
            parameters = ", ".join("%s: String" % name for name in names)
            lines.append("    %sstatic func %s(%s) -> Message {" % (access, member_name(key), parameters))
            lines.append("        Message(%s, [%s], table: %s)" % (swift_literal(key), ", ".join(names), table))
            lines.append("    }")
        else:
            lines.append("    %sstatic var %s: Message { Message(%s, [], table: %s) }" % (access, member_name(key), swift_literal(key), table))
    lines.append("}")
    return lines


def generate(module, keys, tables, arguments, losses):
    prefixes = ", ".join(p + ".*" for p in PREFIXES.get(module, []))
    header = ["// Generated by Scripts/generate-messages.py from Locales/Almanac/*.lproj/Almanac.strings. Do not edit.", ""]
    if module == CORE:
        lines = header + [
            "/// The messages every module shares (and those of Core itself), in every language Almanac speaks.",
            "enum CoreMessages {",
            "    static let table = MessageTable(",
            "        name: %s," % swift_literal(module),
        ] + table_lines(module, tables, keys, "        ", losses) + ["    )", "}"]
        lines += factory_lines(keys, tables, arguments, "package ", "nil") + code_lines(keys, "public ")
        return "\n".join(lines) + "\n"
    lines = header + [
        "import AlmanacCore",
        "",
        "/// %s's messages (%s in Locales/Almanac) in every language Almanac speaks." % (module, prefixes),
        "enum ModuleMessages {",
        "    static let table = MessageTable(",
        "        name: %s," % swift_literal(module),
    ] + table_lines(module, tables, keys, "        ", losses) + ["    )", "}"]
    lines += factory_lines(keys, tables, arguments, "", "ModuleMessages.table") + code_lines(keys, "public ")
    return "\n".join(lines) + "\n"


def main():
    tables = {language: read(language) for language, _ in LANGUAGES}
    keys = set(tables["en"])
    for language, table in tables.items():
        if set(table) != keys:
            missing = sorted(keys - set(table)); extra = sorted(set(table) - keys)
            sys.exit("Locales/Almanac/%s.lproj: missing %s, extra %s" % (language, missing, extra))
        for key, value in table.items():
            if placeholders(value) != placeholders(tables["en"][key]):
                sys.exit("Locales/Almanac/%s.lproj: %s has a different number of placeholders than en" % (language, key))

    arguments, losses = read_arguments()
    for key in sorted(keys):
        count = placeholders(tables["en"][key])
        if len(arguments.get(key, [])) != count:
            sys.exit("Locales/Almanac/en.lproj: %s takes %d argument(s) and names %d; write /* arguments: NAME, ... */ after it"
                     % (key, count, len(arguments.get(key, []))))
    for key in arguments:
        if key not in keys:
            sys.exit("Locales/Almanac/en.lproj: arguments named for %s, which is not a key" % key)

    modules = [CORE] + list(PREFIXES)
    undefined = []
    used = {module: used_keys(module, keys, undefined) for module in modules + ["AlmanacStrings", "almanac", "almanac-strings-gen", "almanac-codec-android"]
            if os.path.isdir(os.path.join(ROOT, "Sources", module))}
    if undefined:
        sys.exit("keys no catalog in Locales/Almanac defines:\n  " + "\n  ".join(undefined))
    spelled = spelled_codes(keys)
    if spelled:
        sys.exit("message keys spelled in the sources (use the generated code or factory):\n  " + "\n  ".join(spelled))
    # A key another module's sources use as well is shared: it lives in Core.
    assigned = {module: set() for module in modules}
    for key in keys:
        home = owner(key)
        if any(key in found for module, found in used.items() if module != home):
            home = CORE
        assigned[home].add(key)

    stale = []
    for module in modules:
        generated = generate(module, assigned[module], tables, arguments, losses)
        path = output_path(module)
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current == generated:
            continue
        if "--check" in sys.argv:
            stale.append(os.path.relpath(path, ROOT))
        else:
            open(path, "w", encoding="utf-8").write(generated)
    if stale:
        sys.exit("stale message tables (run python3 Scripts/generate-messages.py): " + ", ".join(stale))


if __name__ == "__main__":
    main()
