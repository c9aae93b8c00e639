package io.hpf.bench;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The named flags of a benchmark's main ({@code --out FILE --rounds 5 --tree A --tree B}), parsed
 * once and checked: an unknown flag or a missing value is an error naming the flags there are, so a
 * benchmark is run the same way however its arguments are ordered. A flag given several times is a
 * list ({@link #all}).
 */
public final class BenchArgs {
  private final String program;
  private final String[] args;
  private final List<String> known;
  private final Map<String, List<String>> values = new LinkedHashMap<>();

  private BenchArgs(String program, String[] args, List<String> known) {
    this.program = program;
    this.args = args.clone();
    this.known = known;
  }

  /**
   * Parses {@code args} of {@code program}, which takes the flags {@code known} (names without
   * {@code --}).
   */
  public static BenchArgs parse(String program, String[] args, String... known) {
    BenchArgs parsed = new BenchArgs(program, args, List.of(known));
    for (int i = 0; i < args.length; i++) {
      String flag = args[i];
      String name = flag.startsWith("--") ? flag.substring(2) : null;
      if (name == null || !parsed.known.contains(name)) {
        throw parsed.usage("unknown argument " + flag);
      }
      if (i + 1 == args.length) {
        throw parsed.usage(flag + " needs a value");
      }
      parsed.values.computeIfAbsent(name, n -> new ArrayList<>()).add(args[++i]);
    }
    return parsed;
  }

  /** The command line, for the JSON lines' {@code command}. */
  public String commandLine() {
    return program + (args.length == 0 ? "" : " " + String.join(" ", args));
  }

  public String string(String name) {
    List<String> given = values.get(name);
    if (given == null) {
      throw usage("--" + name + " is required");
    }
    return given.get(given.size() - 1);
  }

  public String string(String name, String defaultValue) {
    return values.containsKey(name) ? string(name) : defaultValue;
  }

  public Path path(String name) {
    return Path.of(string(name));
  }

  public int integer(String name) {
    try {
      return Integer.parseInt(string(name));
    } catch (NumberFormatException e) {
      throw usage("--" + name + " must be a number, not '" + string(name) + "'");
    }
  }

  public int integer(String name, int defaultValue) {
    return values.containsKey(name) ? integer(name) : defaultValue;
  }

  /** A comma-separated list of numbers, or {@code defaults}. */
  public int[] integers(String name, int... defaults) {
    if (!values.containsKey(name)) {
      return defaults.clone();
    }
    try {
      return Arrays.stream(string(name).split(",")).mapToInt(Integer::parseInt).toArray();
    } catch (NumberFormatException e) {
      throw usage("--" + name + " must be numbers separated by commas: " + string(name));
    }
  }

  /** Every value given for a repeatable flag (at least one). */
  public List<String> all(String name) {
    string(name); // required
    return List.copyOf(values.get(name));
  }

  private IllegalArgumentException usage(String problem) {
    StringBuilder flags = new StringBuilder();
    for (String k : known) {
      flags.append(flags.length() == 0 ? "" : " ").append("--").append(k);
    }
    return new IllegalArgumentException(program + ": " + problem + " (flags: " + flags + ")");
  }
}
