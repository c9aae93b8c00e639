package io.hpf.archive;

import io.hpf.internal.format.Dictionary;
import io.hpf.internal.format.FileNames;
import io.hpf.internal.manifest.Manifest;
import io.hpf.internal.read.OpenGeneration;
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
 * places. Worked out from the imports' manifests and catalogs before anything moves.
 *
 * @param rows every imported entry's row, in the part it will have
 * @param parts the imported parts under their new ids, with their committed lengths
 * @param moves per part: the subdirectory, its file name there, its file name here
 */
record ImportedParts(List<EntryInfo> rows, List<Generation.Part> parts, List<String[]> moves) {

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
    List<EntryInfo> rows = new ArrayList<>();
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
      for (Iterator<EntryInfo> it = imports.get(i).list(""); it.hasNext(); ) {
        EntryInfo e = it.next();
        rows.add(e.inPart(newIds.get(e.partId())));
      }
    }
    return new ImportedParts(rows, parts, moves);
  }

  /** Whether an import's dictionary is {@code dictionary}: same id, same bytes. */
  private static boolean isSame(Dictionary dictionary, Storage imported, Manifest.DictionaryRef ref)
      throws IOException {
    return dictionary != null
        && ref.dictionaryId() == dictionary.id()
        && Arrays.equals(OpenGeneration.readDictionary(imported, ref).bytes(), dictionary.bytes());
  }
}
