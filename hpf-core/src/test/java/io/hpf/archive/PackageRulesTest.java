package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The package rules every package-info states, checked on the sources of every module: the API
 * packages other than the facade's own ({@code io.hpf.archive}) and the engines never import {@code
 * io.hpf.internal}; the internals never import the API's facade classes; every package says what it
 * holds; no class of the product is over 500 lines. (hpf-bench measures internals and may import
 * them.)
 */
class PackageRulesTest {
  private static final Path REPO = Path.of(System.getProperty("user.dir")).getParent();
  private static final Path CORE = REPO.resolve("hpf-core/src/main/java/io/hpf");
  private static final Set<String> FACADE =
      Set.of("ArchiveReader", "ArchiveWriter", "ArchiveVerifier", "ArchiveInfo", "ArchiveFormat");
  private static final List<String> ENGINES =
      List.of("hpf-hadoop", "hpf-spark", "hpf-server", "hpf-mount", "hpf-cli", "hpf-mapreduce");
  private static final List<String> MODULES =
      List.of(
          "hpf-core",
          "hpf-hadoop",
          "hpf-spark",
          "hpf-server",
          "hpf-mount",
          "hpf-cli",
          "hpf-mapreduce",
          "hpf-bench");
  private static final int MAX_CLASS_LINES = 500;
  private static final Pattern IMPORT =
      Pattern.compile("^import (?:static )?(io\\.hpf\\.[\\w.]+);", Pattern.MULTILINE);

  @Test
  void theApiAndTheEnginesImportNoInternals() throws IOException {
    List<Path> roots = new ArrayList<>();
    for (String api : List.of("store", "pack", "select")) { // archive is the facade over them
      roots.add(CORE.resolve(api));
    }
    for (String engine : ENGINES) {
      roots.add(REPO.resolve(engine).resolve("src/main/java"));
    }
    List<String> broken = new ArrayList<>();
    for (Path root : roots) {
      for (Path file : javaFiles(root)) {
        for (String imported : imports(file)) {
          if (imported.startsWith("io.hpf.internal.")) {
            broken.add(REPO.relativize(file) + " imports " + imported);
          }
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  /**
   * What the API's public types show (methods, constructors, fields, their generic types) names no
   * internal type: a library user, or an engine using {@code var}, never holds one.
   */
  @Test
  void theApiShowsNoInternalType() throws Exception {
    List<String> leaks = new ArrayList<>();
    Path classes = Path.of(System.getProperty("user.dir"), "target", "classes");
    for (String api : List.of("archive", "store", "pack", "select")) {
      for (Path file : classFiles(classes.resolve("io/hpf").resolve(api))) {
        String name =
            classes.relativize(file).toString().replace('/', '.').replaceAll("\\.class$", "");
        Class<?> type = Class.forName(name, false, getClass().getClassLoader());
        if (java.lang.reflect.Modifier.isPublic(type.getModifiers())) {
          leaks.addAll(internalTypesShownBy(type));
        }
      }
    }
    assertEquals(List.of(), leaks);
  }

  private static List<String> internalTypesShownBy(Class<?> type) {
    List<String> shown = new ArrayList<>();
    for (java.lang.reflect.Method m : type.getDeclaredMethods()) {
      if (isVisible(m.getModifiers()) && !m.isSynthetic()) {
        shown.add(m.getGenericReturnType().getTypeName());
        for (java.lang.reflect.Type p : m.getGenericParameterTypes()) {
          shown.add(p.getTypeName());
        }
      }
    }
    for (java.lang.reflect.Constructor<?> c : type.getDeclaredConstructors()) {
      if (isVisible(c.getModifiers())) {
        for (java.lang.reflect.Type p : c.getGenericParameterTypes()) {
          shown.add(p.getTypeName());
        }
      }
    }
    for (java.lang.reflect.Field f : type.getDeclaredFields()) {
      if (isVisible(f.getModifiers())) {
        shown.add(f.getGenericType().getTypeName());
      }
    }
    return shown.stream()
        .filter(s -> s.contains("io.hpf.internal."))
        .map(s -> type.getName() + " shows " + s)
        .distinct()
        .toList();
  }

  private static boolean isVisible(int modifiers) {
    return java.lang.reflect.Modifier.isPublic(modifiers)
        || java.lang.reflect.Modifier.isProtected(modifiers);
  }

  private static List<Path> classFiles(Path root) throws IOException {
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".class")).sorted().toList();
    }
  }

  @Test
  void theStoreImportsNothingOfHpf() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path file : javaFiles(CORE.resolve("store"))) {
      for (String imported : imports(file)) {
        if (!imported.startsWith("io.hpf.store.")) {
          broken.add(REPO.relativize(file) + " imports " + imported);
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  @Test
  void internalsImportNoFacadeClass() throws IOException {
    List<String> broken = new ArrayList<>();
    for (Path file : javaFiles(CORE.resolve("internal"))) {
      for (String imported : imports(file)) {
        String simple = imported.substring(imported.lastIndexOf('.') + 1);
        if (imported.startsWith("io.hpf.archive.") && FACADE.contains(simple)) {
          broken.add(REPO.relativize(file) + " imports " + imported);
        }
      }
    }
    assertEquals(List.of(), broken);
  }

  @Test
  void noClassOfTheProductIsOverFiveHundredLines() throws IOException {
    List<String> tooLong = new ArrayList<>();
    for (String module : MODULES) {
      for (Path file : javaFiles(REPO.resolve(module).resolve("src/main/java"))) {
        long lines = Files.readAllLines(file).size();
        if (lines > MAX_CLASS_LINES) {
          tooLong.add(REPO.relativize(file) + ": " + lines + " lines");
        }
      }
    }
    assertEquals(List.of(), tooLong);
  }

  @Test
  void everyPackageSaysWhatItHolds() throws IOException {
    List<String> missing = new ArrayList<>();
    try (Stream<Path> dirs = Files.walk(CORE)) {
      for (Path dir : dirs.filter(Files::isDirectory).toList()) {
        boolean hasClasses;
        try (Stream<Path> files = Files.list(dir)) {
          hasClasses = files.anyMatch(f -> f.toString().endsWith(".java"));
        }
        if (hasClasses && !Files.exists(dir.resolve("package-info.java"))) {
          missing.add(REPO.relativize(dir).toString());
        }
      }
    }
    assertEquals(List.of(), missing);
    assertTrue(Files.exists(CORE.resolve("archive/package-info.java")), "rules read from " + CORE);
  }

  private static List<Path> javaFiles(Path root) throws IOException {
    assertTrue(Files.isDirectory(root), root + " is not a directory");
    try (Stream<Path> files = Files.walk(root)) {
      return files.filter(f -> f.toString().endsWith(".java")).sorted().toList();
    }
  }

  private static List<String> imports(Path file) throws IOException {
    Matcher m = IMPORT.matcher(Files.readString(file));
    List<String> found = new ArrayList<>();
    while (m.find()) {
      found.add(m.group(1));
    }
    return found;
  }
}
