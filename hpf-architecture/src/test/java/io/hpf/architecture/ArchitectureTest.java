package io.hpf.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.Dependency;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.library.dependencies.SlicesRuleDefinition;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The boundary between the API, the engines and the internals, checked on the compiled classes of
 * every module (this module is built after all of them): each package depends on exactly the hpf
 * packages its package-info lists, the internals never on the API's facade, nothing outside
 * hpf-core on its internals, the model and the store on nothing above them, and no cycle between
 * the API packages and the internals. (Modules that require hpf-core as a Java module cannot even
 * compile against its internals: ModuleBoundaryTest.)
 */
class ArchitectureTest {
  private static final Path REPO = Path.of(System.getProperty("user.dir")).getParent();
  private static final List<String> MODULES =
      List.of(
          "hpf-core",
          "hpf-hadoop",
          "hpf-mapreduce",
          "hpf-spark",
          "hpf-server",
          "hpf-mount",
          "hpf-bench",
          "hpf-cli");
  private static final String LIST_START = "May import (checked by ArchitectureTest):";
  private static final Pattern PACKAGE_NAME = Pattern.compile("io\\.hpf(\\.[a-z0-9]+)*");
  private static final int FACADE_MAX_PUBLIC_TYPES = 20;

  private static JavaClasses product;
  private static JavaClasses core;
  private static JavaClasses engines;

  @BeforeAll
  static void importClasses() {
    List<Path> all = new ArrayList<>();
    for (String module : MODULES) {
      Path classes = REPO.resolve(module).resolve("target/classes");
      assertTrue(Files.isDirectory(classes.resolve("io/hpf")), module + " is not compiled");
      all.add(classes);
    }
    product = new ClassFileImporter().importPaths(all);
    String coreClasses = REPO.resolve("hpf-core/target/classes").toUri().toString();
    DescribedPredicate<JavaClass> inCore =
        DescribedPredicate.describe(
            "in hpf-core",
            c ->
                c.getSource()
                    .map(s -> s.getUri().toString().startsWith(coreClasses))
                    .orElse(false));
    core = product.that(inCore);
    engines = product.that(DescribedPredicate.not(inCore));
    assertTrue(core.size() > 100 && engines.size() > 100, core.size() + " / " + engines.size());
  }

  @Test
  void everyPackageDependsOnWhatItsPackageInfoLists() throws IOException {
    Map<String, Set<String>> actual = new TreeMap<>();
    for (JavaClass c : product) {
      String from = c.getPackageName();
      if (!from.startsWith("io.hpf")) {
        continue;
      }
      Set<String> targets = actual.computeIfAbsent(from, p -> new TreeSet<>());
      for (Dependency d : c.getDirectDependenciesFromSelf()) {
        String to = d.getTargetClass().getBaseComponentType().getPackageName();
        if (to.startsWith("io.hpf") && !to.equals(from)) {
          targets.add(to);
        }
      }
    }
    Map<String, Set<String>> declared = new TreeMap<>();
    List<String> unlisted = new ArrayList<>();
    for (String pkg : actual.keySet()) {
      Set<String> listed = declaredImports(pkg);
      if (listed == null) {
        unlisted.add(pkg + " " + actual.get(pkg));
      }
      declared.put(pkg, listed);
    }
    assertEquals(List.of(), unlisted, "packages whose package-info lists nothing");
    assertEquals(actual, declared, "the package-info lists (\"" + LIST_START + "\") differ");
  }

  @Test
  void internalsNeverDependOnTheFacade() {
    noClasses()
        .that()
        .resideInAPackage("io.hpf.internal..")
        .should()
        .dependOnClassesThat()
        .resideInAPackage("io.hpf.archive")
        .check(product);
  }

  @Test
  void nothingOutsideCoreReachesItsInternals() {
    noClasses().should().dependOnClassesThat().resideInAPackage("io.hpf.internal..").check(engines);
  }

  @Test
  void theModelAndTheStoreDependOnNothingAboveThem() {
    classes()
        .that()
        .resideInAPackage("io.hpf.archive.model")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "io.hpf.archive.model", "io.hpf.store")
        .check(product);
    classes()
        .that()
        .resideInAPackage("io.hpf.store")
        .should()
        .onlyDependOnClassesThat()
        .resideInAnyPackage("java..", "io.hpf.store")
        .check(product);
  }

  /** The internals taken as one: a cycle among them is theirs; one through the API is not. */
  @Test
  void noCycleBetweenTheApiAndTheInternals() {
    SlicesRuleDefinition.slices()
        .assignedFrom(
            new com.tngtech.archunit.library.dependencies.SliceAssignment() {
              @Override
              public com.tngtech.archunit.library.dependencies.SliceIdentifier getIdentifierOf(
                  JavaClass c) {
                String pkg = c.getPackageName();
                if (pkg.startsWith("io.hpf.internal.")) {
                  return com.tngtech.archunit.library.dependencies.SliceIdentifier.of("internal");
                }
                return pkg.startsWith("io.hpf.")
                    ? com.tngtech.archunit.library.dependencies.SliceIdentifier.of(pkg)
                    : com.tngtech.archunit.library.dependencies.SliceIdentifier.ignore();
              }

              @Override
              public String getDescription() {
                return "hpf-core's API packages, and its internals as one";
              }
            })
        .should()
        .beFreeOfCycles()
        .check(core);
  }

  @Test
  void theFacadeFitsOnAPage() {
    List<String> types = new ArrayList<>();
    for (JavaClass c : product) {
      if (c.getPackageName().equals("io.hpf.archive")
          && c.getModifiers().contains(JavaModifier.PUBLIC)
          && !c.isNestedClass()) {
        types.add(c.getSimpleName());
      }
    }
    assertTrue(
        types.size() <= FACADE_MAX_PUBLIC_TYPES,
        "io.hpf.archive has " + types.size() + " public types: " + new TreeSet<>(types));
  }

  /**
   * The packages a package-info lists after {@link #LIST_START}, up to the sentence's end; null
   * when there is no package-info or it lists nothing.
   */
  private static Set<String> declaredImports(String pkg) throws IOException {
    Path info = packageInfo(pkg);
    if (info == null) {
      return null;
    }
    String text =
        Files.readString(info).replaceAll("(?m)^\\s*/?\\*+/?", " ").replaceAll("\\s+", " ");
    int start = text.indexOf(LIST_START);
    if (start < 0) {
      return null;
    }
    String list = text.substring(start + LIST_START.length());
    list = list.substring(0, list.indexOf(". ") >= 0 ? list.indexOf(". ") : list.length());
    Set<String> names = new TreeSet<>();
    Matcher m = PACKAGE_NAME.matcher(list.strip().equals("nothing of hpf") ? "" : list);
    while (m.find()) {
      names.add(m.group());
    }
    return names;
  }

  private static Path packageInfo(String pkg) {
    for (String module : MODULES) {
      Path info =
          REPO.resolve(module)
              .resolve("src/main/java")
              .resolve(pkg.replace('.', '/'))
              .resolve("package-info.java");
      if (Files.exists(info)) {
        return info;
      }
    }
    return null;
  }
}
