package io.hpf.archive;

import io.hpf.archive.model.EntryInfo;
import io.hpf.archive.model.Generation;
import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.read.OpenGeneration;
import io.hpf.internal.write.SortedRows;
import io.hpf.store.Storage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * What importing archives written into subdirectories (a job's task outputs) brings in: their part
 * files under new ids of this archive, the moves that put them in place, and their rows in the new
 * places. Worked out from the imports' manifests before anything moves; the rows are read from
 * their catalogs as the commit asks for them (never all held: a job may import hundreds of
 * millions).
 *
 * @param rows every imported entry's row, in the part it will have, in name order (a name two
 *     imports have comes twice: the commit's plan refuses it)
 * @param parts the imported parts under their new ids, with their committed lengths
 * @param moves per part: the subdirectory, its file name there, its file name here
 */
record ImportedParts(SortedRows rows, List<Generation.Part> parts, List<String[]> moves) {

  /**
   * Plans the import of {@code imports} (a reader of each, written into {@code subdirectories}),
   * numbering their parts from {@code firstPartId}.
   *
   * @param dictionary this archive's newest dictionary, or null: an import may use no other
   * @throws IllegalArgumentException an import written with another dictionary
   */
  static ImportedParts of(
      List<String> subdirectories,
      List<ArchiveReader> imports,
      int firstPartId,
      Dictionary dictionary)
      throws IOException {
    List<SortedRows> rows = new ArrayList<>();
    List<Generation.Part> parts = new ArrayList<>();
    List<String[]> moves = new ArrayList<>();
    int nextId = firstPartId;
    for (int i = 0; i < imports.size(); i++) {
      Manifest imported = imports.get(i).committedManifest();
      for (Manifest.DictionaryRef ref : imported.dictionaries()) {
        if (!isSame(dictionary, imports.get(i).storage(), ref)) {
          throw new IllegalArgumentException(
              subdirectories.get(i)
                  + ": an import must be written without a dictionary or with this archive's"
                  + " (same id, same bytes)");
        }
      }
      Map<Integer, Integer> newIds = new HashMap<>();
      for (Generation.Part part : imported.parts()) {
        int id = nextId++;
        newIds.put(part.partId(), id);
        parts.add(new Generation.Part(id, part.committedLength()));
        moves.add(
            new String[] {
              subdirectories.get(i),
              FileNames.partFileName(part.partId()),
              FileNames.partFileName(id)
            });
      }
      rows.add(new ImportRows(imports.get(i), newIds));
    }
    return new ImportedParts(SortedRows.merge(rows), parts, moves);
  }

  /** An import's live rows in name order, each in the part it will have here. */
  private record ImportRows(ArchiveReader reader, Map<Integer, Integer> newIds)
      implements SortedRows {
    @Override
    public long size() {
      return reader.entryCount();
    }

    @Override
    public long accountedBytes() {
      return reader.committedManifest().liveEntryBytes();
    }

    @Override
    public Cursor open() throws IOException {
      Iterator<EntryInfo> rows = reader.list("");
      Iterator<EntryInfo> moved =
          new Iterator<>() {
            @Override
            public boolean hasNext() {
              return rows.hasNext();
            }

            @Override
            public EntryInfo next() {
              EntryInfo e = rows.next();
              return e.inPart(newIds.get(e.partId()));
            }
          };
      return Cursor.of(moved, () -> {});
    }

    @Override
    public void close() {}
  }

  /** Whether an import's dictionary is {@code dictionary}: same id, same bytes. */
  private static boolean isSame(Dictionary dictionary, Storage imported, Manifest.DictionaryRef ref)
      throws IOException {
    return dictionary != null
        && ref.dictionaryId() == dictionary.id()
        && Arrays.equals(OpenGeneration.readDictionary(imported, ref).bytes(), dictionary.bytes());
  }
}
