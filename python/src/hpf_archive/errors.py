"""The errors a reader raises: each names the file and offset and says what was expected."""


class HpfError(Exception):
    """Base of every error this package raises."""


class CorruptArchive(HpfError):
    """Bytes on disk that break the format: names the file, the offset and the rule broken."""

    def __init__(self, path, offset, message):
        super().__init__(f"{path} at offset {offset}: {message}")
        self.path = path
        self.offset = offset
        self.problem = message


class UnsupportedVersion(HpfError):
    """A file of a newer format version than this package reads."""

    def __init__(self, path, version):
        super().__init__(f"{path}: unsupported version {version} (this package reads 1 and 2)")
        self.path = path
        self.version = version


class NotFound(HpfError, KeyError):
    """No entry of that name."""

    def __init__(self, archive, name):
        super().__init__(f"{archive}: no entry '{name}'")
        self.name = name

    def __str__(self):
        return self.args[0]


class ReadOnly(HpfError, PermissionError):
    """A change asked of an archive through a read-only interface (the fsspec file system)."""
