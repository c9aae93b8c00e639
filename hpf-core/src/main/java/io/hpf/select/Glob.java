package io.hpf.select;

import java.util.regex.Pattern;

/**
 * Globs on entry names: {@code *} and {@code ?} stay within one path component, {@code **} crosses
 * components, {@code [abc]}, {@code [!abc]} and {@code {a,b}} as in a shell.
 */
final class Glob {
  private Glob() {}

  /**
   * The regular expression of a glob.
   *
   * @throws IllegalArgumentException naming the problem (an unclosed bracket or brace)
   */
  static Pattern compile(String glob) {
    StringBuilder re = new StringBuilder();
    int braces = 0;
    for (int i = 0; i < glob.length(); i++) {
      char c = glob.charAt(i);
      switch (c) {
        case '*':
          if (i + 1 < glob.length() && glob.charAt(i + 1) == '*') {
            re.append(".*");
            i++;
          } else {
            re.append("[^/]*");
          }
          break;
        case '?':
          re.append("[^/]");
          break;
        case '[':
          {
            int end = glob.indexOf(']', i + 2);
            if (end < 0) {
              throw new IllegalArgumentException("unclosed '[' in glob");
            }
            String set = glob.substring(i + 1, end);
            if (set.startsWith("!")) {
              set = "^" + set.substring(1);
            }
            re.append('[').append(set.replace("\\", "\\\\").replace("[", "\\[")).append(']');
            i = end;
            break;
          }
        case '{':
          braces++;
          re.append("(?:");
          break;
        case '}':
          if (braces == 0) {
            throw new IllegalArgumentException("'}' without '{' in glob");
          }
          braces--;
          re.append(')');
          break;
        case ',':
          re.append(braces > 0 ? "|" : ",");
          break;
        default:
          re.append(Pattern.quote(String.valueOf(c)));
      }
    }
    if (braces != 0) {
      throw new IllegalArgumentException("unclosed '{' in glob");
    }
    return Pattern.compile(re.toString(), Pattern.DOTALL);
  }
}
