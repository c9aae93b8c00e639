package io.hpf.architecture;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * hpf-core's module descriptor keeps its internals in: a module that requires {@code io.hpf.core}
 * compiles against the API and not against {@code io.hpf.internal}. Compiled here with javac, as an
 * outside project would (here, where javac's API is at hand: hpf-core's own tests run inside its
 * module).
 */
class ModuleBoundaryTest {
  @TempDir Path dir;

  @Test
  void aModuleCompilesAgainstTheApi() throws Exception {
    String out = compile("io.hpf.archive.ArchiveReader", "io.hpf.archive.model.EntryInfo");
    assertEquals("", out);
  }

  @Test
  void aModuleCannotCompileAgainstTheInternals() throws Exception {
    String out = compile("io.hpf.internal.index.PerfectHash");
    assertTrue(
        out.startsWith("failed: ")
            && out.contains("package io.hpf.internal.index is not visible")
            && out.contains("declared in module io.hpf.core, which does not export it"),
        out);
  }

  /** Compiles a module {@code outside} naming {@code types}; returns javac's messages. */
  private String compile(String... types) throws IOException, URISyntaxException {
    Path src = Files.createDirectories(dir.resolve("src/outside"));
    Path module = dir.resolve("src/module-info.java");
    Files.writeString(module, "module outside { requires io.hpf.core; }\n");
    StringBuilder body = new StringBuilder("package outside;\npublic class Uses {\n");
    for (int i = 0; i < types.length; i++) {
      body.append("  Class<?> t").append(i).append(" = ").append(types[i]).append(".class;\n");
    }
    Path uses = src.resolve("Uses.java");
    Files.writeString(uses, body.append("}\n").toString());
    String modulePath =
        String.join(
            java.io.File.pathSeparator,
            Path.of(System.getProperty("user.dir"))
                .resolveSibling("hpf-core/target/classes")
                .toString(),
            jarOf(com.github.luben.zstd.Zstd.class),
            jarOf(net.jpountz.lz4.LZ4Factory.class));
    JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
    java.io.ByteArrayOutputStream messages = new java.io.ByteArrayOutputStream();
    int status =
        javac.run(
            null,
            messages,
            messages,
            "--module-path",
            modulePath,
            "--class-path", // not this JVM's, which holds hpf-core too
            dir.toString(),
            "-d",
            dir.resolve("out").toString(),
            module.toString(),
            uses.toString());
    String said = messages.toString(java.nio.charset.StandardCharsets.UTF_8);
    return status == 0 ? said : "failed: " + said;
  }

  private static String jarOf(Class<?> type) throws URISyntaxException {
    return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
  }
}
