package io.hpf.archive;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Rules of the sources of every module: every package says what it holds, no class of the product
 * is over 500 lines, and the API's public types show no internal type. Which package may depend on
 * which is checked on the compiled classes of all modules by hpf-architecture's ArchitectureTest.
 */
class PackageRulesTest {
  private static final Path REPO = Path.of(System.getProperty("user.dir")).getParent();
  private static final Path CORE = REPO.resolve("hpf-core/src/main/java/io/hpf");
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

  /**
   * What the API's public types show (methods, constructors, fields, their generic types) names no
   * internal type: a library user, or an engine using {@code var}, never holds one.
   */
  @Test
  void theApiShowsNoInternalType() throws Exception {
    List<String> leaks = new ArrayList<>();
    Path classes = Path.of(System.getProperty("user.dir"), "target", "classes");
    for (String api : List.of("archive", "archive/model", "store", "pack", "select")) {
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
    for (String module : MODULES) {
      try (Stream<Path> dirs = Files.walk(REPO.resolve(module).resolve("src/main/java"))) {
        for (Path dir : dirs.filter(Files::isDirectory).toList()) {
          boolean hasClasses;
          try (Stream<Path> files = Files.list(dir)) {
            hasClasses =
                files.anyMatch(
                    f -> f.toString().endsWith(".java") && !f.endsWith("module-info.java"));
          }
          if (hasClasses && !Files.exists(dir.resolve("package-info.java"))) {
            missing.add(REPO.relativize(dir).toString());
          }
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
}
