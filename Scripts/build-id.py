#!/usr/bin/env python3
"""Sets an ELF binary's GNU build ID to a hash of its own bytes, so that two builds of one commit that
differ in nothing else get one ID (the linker's ID also hashes what the strip removed).

    python3 Scripts/build-id.py BINARY

The ID's bytes are zeroed, the whole file hashed with SHA-1 (the size of the ID gold and ld write:
20 bytes), and the hash's first bytes written in their place. Exits 1 when the binary is no 64-bit
little-endian ELF file or has no build ID note.
"""
import hashlib, struct, sys

ELF_MAGIC = b"\x7fELF"
ELF_CLASS_64 = 2
ELF_DATA_LITTLE = 1
NOTE_GNU_BUILD_ID = 3


def build_id_span(data):
    """Where the build ID's descriptor lies in the file: (offset, size)."""
    if data[:4] != ELF_MAGIC or data[4] != ELF_CLASS_64 or data[5] != ELF_DATA_LITTLE:
        raise ValueError("not a 64-bit little-endian ELF file")
    section_offset, = struct.unpack_from("<Q", data, 0x28)
    entry_size, count, names_index = struct.unpack_from("<HHH", data, 0x3A)
    def section(index):
        # name, type, flags, address, offset, size
        return struct.unpack_from("<IIQQQQ", data, section_offset + index * entry_size)
    names_offset = section(names_index)[4]
    for index in range(count):
        name, _, _, _, offset, size = section(index)
        end = data.index(b"\0", names_offset + name)
        if data[names_offset + name:end] != b".note.gnu.build-id":
            continue
        name_size, descriptor_size, note_type = struct.unpack_from("<III", data, offset)
        if note_type != NOTE_GNU_BUILD_ID:
            break
        descriptor = offset + 12 + (name_size + 3) // 4 * 4
        if descriptor + descriptor_size > offset + size:
            break
        return descriptor, descriptor_size
    raise ValueError("no GNU build ID note")


def main():
    path = sys.argv[1]
    with open(path, "rb") as file:
        data = bytearray(file.read())
    try:
        offset, size = build_id_span(data)
    except ValueError as error:
        sys.exit("build-id.py: %s: %s" % (path, error))
    data[offset:offset + size] = bytes(size)
    digest = hashlib.sha1(data).digest()
    data[offset:offset + size] = (digest * (size // len(digest) + 1))[:size]
    with open(path, "r+b") as file:
        file.seek(offset)
        file.write(data[offset:offset + size])


if __name__ == "__main__":
    main()
