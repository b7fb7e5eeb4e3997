package dev.stowage.migrate.internal;

import dev.stowage.migrate.internal.Checkpoint.Side;
import dev.stowage.spi.TableRef;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The header line of a {@link Checkpoint} file: which migration (source and target {@link Side
 * sides}) the file belongs to, written when the file is created and checked, before anything is
 * read or written, when a run resumes from it. The format is described with {@link Checkpoint}.
 * Stateless.
 */
final class CheckpointHeader {
  private static final String MAGIC = "stowage-migrate";

  /** The format of headers whose sides are both laid out by Stowage (unchanged since format 2). */
  private static final String FORMAT = "2";

  /** The format of headers with an adopted side: each side also records its physical name. */
  private static final String FORMAT_ADOPTED = "3";

  private CheckpointHeader() {}

  /** The header of a checkpoint of the migration from {@code source} to {@code target}. */
  static String of(Side source, Side target) {
    boolean adopted = source.adoptedName() != null || target.adoptedName() != null;
    return MAGIC
        + "\t"
        + (adopted ? FORMAT_ADOPTED : FORMAT)
        + "\t"
        + fields(source, adopted)
        + "\t"
        + fields(target, adopted);
  }

  private static String fields(Side side, boolean adopted) {
    return escape(side.backend())
        + "\t"
        + escape(side.location())
        + "\t"
        + side.table().namespace()
        + "\t"
        + side.table().table()
        + (adopted ? "\t" + escape(side.adoptedName() == null ? "" : side.adoptedName()) : "");
  }

  /** A file holding nothing but the start of this migration's header: a crash while creating it. */
  static boolean torn(byte[] all, String expected) {
    String text = new String(all, StandardCharsets.UTF_8);
    return text.indexOf('\n') < 0 && expected.startsWith(text);
  }

  /**
   * Checks a file's header against this migration's sides.
   *
   * @throws IllegalArgumentException if the file belongs to another migration (naming both pairs
   *     and what differs), was written in format 1, in a format this version does not read, or is
   *     not a checkpoint
   */
  static void check(Path file, String header, Side source, Side target) {
    String[] f = header.split("\t", -1);
    if (f.length < 2 || !f[0].equals(MAGIC)) {
      throw new IllegalArgumentException(
          "checkpoint " + file + " is not a Stowage migration checkpoint; name another file");
    }
    String run = source.describe() + " -> " + target.describe();
    if (f[1].equals("1")) {
      throw new IllegalArgumentException(
          "checkpoint "
              + file
              + " was written by an earlier version of Stowage and does not record where its"
              + " source and target are, so it cannot be checked against this migration ("
              + run
              + "); start afresh with another checkpoint file (or delete this one): the items"
              + " are copied again");
    }
    boolean adopted = f[1].equals(FORMAT_ADOPTED);
    if (!(f[1].equals(FORMAT) && f.length == 10) && !(adopted && f.length == 12)) {
      throw new IllegalArgumentException(
          "checkpoint "
              + file
              + " has format "
              + f[1]
              + ", which this version of Stowage does not read; name another file");
    }
    Side was = side(file, f, 2, adopted);
    Side wasTarget = side(file, f, adopted ? 7 : 6, adopted);
    List<String> differs = new ArrayList<>();
    differences("source", was, source, differs);
    differences("target", wasTarget, target, differs);
    if (!differs.isEmpty()) {
      throw new IllegalArgumentException(
          "checkpoint "
              + file
              + " belongs to another migration: "
              + (differs.size() == 1
                  ? differs.get(0) + " differs"
                  : String.join(", ", differs.subList(0, differs.size() - 1))
                      + " and "
                      + differs.get(differs.size() - 1)
                      + " differ")
              + ". It was written for "
              + was.describe()
              + " -> "
              + wasTarget.describe()
              + ", not for "
              + run
              + "; resume with the stores it names, or start afresh with another checkpoint file"
              + " (or delete this one)");
    }
  }

  private static Side side(Path file, String[] f, int at, boolean adopted) {
    try {
      String physical = adopted ? unescape(f[at + 4]) : "";
      return new Side(
          unescape(f[at]),
          unescape(f[at + 1]),
          new TableRef(f[at + 2], f[at + 3]),
          physical.isEmpty() ? null : physical);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "checkpoint "
              + file
              + " has a damaged header ("
              + e.getMessage()
              + "); name another file",
          e);
    }
  }

  private static void differences(String which, Side was, Side now, List<String> out) {
    if (!was.backend().equals(now.backend())) {
      out.add("the " + which + " backend");
    } else if (!was.location().equals(now.location())) {
      out.add("the " + which + " location");
    }
    if (!was.table().namespace().equals(now.table().namespace())) {
      out.add("the " + which + " namespace");
    }
    if (!was.table().table().equals(now.table().table())) {
      out.add("the " + which + " table");
    }
    if (!Objects.equals(was.adoptedName(), now.adoptedName())) {
      out.add("the " + which + "'s adopted table");
    }
  }

  private static String escape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (char c : s.toCharArray()) {
      switch (c) {
        case '\\' -> b.append("\\\\");
        case '\t' -> b.append("\\t");
        case '\r' -> b.append("\\r");
        case '\n' -> b.append("\\n");
        default -> b.append(c);
      }
    }
    return b.toString();
  }

  private static String unescape(String s) {
    StringBuilder b = new StringBuilder(s.length());
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      if (c != '\\' || i + 1 == s.length()) {
        b.append(c);
        continue;
      }
      char e = s.charAt(++i);
      b.append(
          switch (e) {
            case 't' -> '\t';
            case 'r' -> '\r';
            case 'n' -> '\n';
            default -> e;
          });
    }
    return b.toString();
  }
}
