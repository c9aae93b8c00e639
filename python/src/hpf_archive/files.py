"""The names of an archive's files (FORMAT.md "File names"); manifests are in manifest.py."""


def part(part_id):
    return "part-%08d.hpfp" % part_id


def catalog(segment_id):
    return "seg-%08d.hpfc" % segment_id


def bucket(segment_id, number):
    return "seg-%08d-b%06d.hpfx" % (segment_id, number)


def dictionary(dictionary_id):
    return "dict-%08d.hpfd" % dictionary_id
