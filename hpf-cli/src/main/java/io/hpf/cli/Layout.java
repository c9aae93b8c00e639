package io.hpf.cli;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * Where hpf's programs are: in a checkout after the build ({@code hpf-server/target/hpf-server.jar}
 * and so on, found from the CLI's own jar or classes) or in an unpacked distribution ({@code
 * scripts/dist.sh}: {@code bin/hpf}, the programs' thin jars in {@code lib/}, the CLI's being
 * {@code lib/hpf.jar}). Each thin jar finds its dependencies in the {@code lib/} beside it.
 */
record Layout(Path root, boolean distribution) {
  /** The layout of the running CLI. */
  static Layout ofThisCli() {
    Path self;
    try {
      self = Path.of(Main.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    } catch (URISyntaxException e) {
      throw new IllegalStateException("hpf cannot tell where its own classes are", e);
    }
    // A distribution: <root>/lib/hpf.jar beside <root>/bin/hpf.
    // A checkout: <root>/hpf-cli/target/hpf.jar or <root>/hpf-cli/target/classes.
    Path parent = self.getParent();
    Path up = parent == null ? null : parent.getParent();
    if (up != null && Files.isRegularFile(up.resolve("bin/hpf"))) {
      return new Layout(up, true);
    }
    Path root = up == null ? null : up.getParent();
    if (root == null) {
      throw new IllegalStateException("hpf cannot tell its layout from " + self);
    }
    return new Layout(root, false);
  }

  /**
   * The jar of a module ({@code server}, {@code mapreduce}, {@code spark}, {@code bench}).
   *
   * @throws IOException naming the jar when it is not there (a distribution without that module, or
   *     a checkout not built)
   */
  Path jar(String module) throws IOException {
    String name = "hpf-" + module + ".jar";
    // hpf-s3a.jar is packed by hpf-hadoop, whose dependencies it holds.
    String built = module.equals("s3a") ? "hpf-hadoop" : "hpf-" + module;
    Path jar =
        distribution
            ? root.resolve("lib").resolve(name)
            : root.resolve(built).resolve("target").resolve(name);
    if (!Files.isRegularFile(jar)) {
      throw new java.io.FileNotFoundException(
          jar + ": not found (" + (distribution ? "not in this distribution" : "not built") + ")");
    }
    return jar;
  }

  /** A file of the checkout ({@code build-tools/...}), or null in a distribution. */
  Path checkoutFile(String relative) {
    return distribution ? null : root.resolve(relative);
  }
}
