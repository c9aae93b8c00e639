package io.hpf.cli;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * How help reads. Commands write their descriptions as lines of source code; picocli wraps each
 * line again at its own width, which cut sentences in two. Here each paragraph (lines up to an
 * empty one) is joined before picocli wraps it, and the command list shows each command's first
 * sentence whole.
 */
final class HelpText {
  private HelpText() {}

  /** Joins the description paragraphs of {@code cli} and its subcommands; lists every command. */
  static void tidy(CommandLine cli) {
    for (CommandLine sub : cli.getSubcommands().values()) {
      UsageMessageSpec usage = sub.getCommandSpec().usageMessage();
      usage.description(paragraphs(usage.description()));
    }
    cli.getHelpSectionMap().put(UsageMessageSpec.SECTION_KEY_COMMAND_LIST, help -> list(cli));
  }

  /** Lines joined into paragraphs: an empty line ends one. */
  static String[] paragraphs(String[] lines) {
    List<String> out = new ArrayList<>();
    StringBuilder paragraph = new StringBuilder();
    for (String line : lines) {
      if (line.isBlank()) {
        if (paragraph.length() > 0) {
          out.add(paragraph.toString());
          paragraph.setLength(0);
        }
        out.add("");
      } else {
        paragraph.append(paragraph.length() > 0 ? " " : "").append(line.strip());
      }
    }
    if (paragraph.length() > 0) {
      out.add(paragraph.toString());
    }
    return out.toArray(String[]::new);
  }

  /** The first sentence of a paragraph (up to a full stop followed by a space, or all of it). */
  static String firstSentence(String paragraph) {
    int end = paragraph.indexOf(". ");
    return end < 0 ? paragraph : paragraph.substring(0, end + 1);
  }

  private static String list(CommandLine cli) {
    Map<String, String> rows = new java.util.LinkedHashMap<>();
    cli.getSubcommands()
        .forEach(
            (name, sub) -> {
              String[] description = sub.getCommandSpec().usageMessage().description();
              rows.put(
                  name,
                  name.equals("help") // picocli's own, whose text is written for another place
                      ? "Shows the help of a command (hpf help COMMAND, or hpf COMMAND --help)."
                      : description.length == 0 ? "" : firstSentence(description[0]));
            });
    int width = cli.getUsageHelpWidth();
    int column = 2 + rows.keySet().stream().mapToInt(String::length).max().orElse(0) + 2;
    StringBuilder out = new StringBuilder();
    rows.forEach((name, text) -> wrap(out, name, text, column, width));
    return out.toString();
  }

  /** " name text..." with the text wrapped at {@code width}, continued under its first word. */
  private static void wrap(StringBuilder out, String name, String text, int column, int width) {
    StringBuilder line = new StringBuilder("  " + name);
    for (String word : text.split(" ")) {
      if (line.length() < column) {
        line.append(" ".repeat(column - line.length()));
      } else if (line.length() + 1 + word.length() > width) {
        out.append(line.toString().stripTrailing()).append('\n');
        line = new StringBuilder(" ".repeat(column));
      } else {
        line.append(' ');
      }
      line.append(word);
    }
    out.append(line).append('\n');
  }
}
