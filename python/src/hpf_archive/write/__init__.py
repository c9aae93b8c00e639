"""Writing archives from Python (FORMAT.md, written from the spec as the reader is): `create`,
`append`, and the `Writer` they return. The modules here other than `opening` and `writer` are
internal."""

from .lock import ArchiveLocked
from .opening import append, create
from .stage import Stage, stage
from .writer import NameConflict, Writer

__all__ = ["create", "append", "stage", "Stage", "Writer", "NameConflict", "ArchiveLocked"]
