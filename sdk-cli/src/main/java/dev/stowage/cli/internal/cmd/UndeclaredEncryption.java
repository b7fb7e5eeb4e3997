package dev.stowage.cli.internal.cmd;

import dev.stowage.TableSpec;
import dev.stowage.item.AttributeValue;
import dev.stowage.item.Bytes;
import dev.stowage.item.Item;
import java.io.PrintStream;
import java.util.Map;
import java.util.TreeSet;

/**
 * Notices values that Stowage encrypted in attributes the command's spec does not declare
 * encrypted. Such a value reads as the binary it is stored as (docs/FORMAT.md, "Reading": a plain
 * attribute's envelope is read as one only if it decrypts), which looks like data but is
 * ciphertext; the command prints it as stored and says once, on standard error, how to read it. Not
 * thread-safe: one per command run.
 */
final class UndeclaredEncryption {
  private static final int FLAGS = 3;
  private static final int ENCRYPTED = 0x02;

  private final TableSpec spec;
  private final TreeSet<String> found = new TreeSet<>();

  UndeclaredEncryption(TableSpec spec) {
    this.spec = spec;
  }

  /** Looks at an item as printed (decoded under the spec). */
  void look(Item item) {
    for (Map.Entry<String, AttributeValue> e : item.attributes().entrySet()) {
      if (e.getValue() instanceof AttributeValue.BinaryValue b
          && encryptedEnvelope(b.value())
          && !spec.policy(e.getKey()).encrypted()) {
        found.add(e.getKey());
      }
    }
  }

  /** Says which attributes held such values, if any. */
  void report(PrintStream err) {
    if (found.isEmpty()) {
      return;
    }
    String names = String.join(",", found);
    err.println(
        "stowage: note: "
            + (found.size() == 1 ? "attribute " : "attributes ")
            + String.join(", ", found.stream().map(n -> "'" + n + "'").toList())
            + (found.size() == 1 ? " holds" : " hold")
            + " values Stowage encrypted, shown as stored; to read them, declare them"
            + " (--encrypted "
            + names
            + ") and give --keyset FILE");
  }

  /** Magic {@code F5 53}, version 1 and the encrypted flag: the header of an encrypted envelope. */
  private static boolean encryptedEnvelope(Bytes b) {
    return b.size() > FLAGS
        && b.byteAt(0) == (byte) 0xF5
        && b.byteAt(1) == (byte) 0x53
        && b.byteAt(2) == 1
        && (b.byteAt(FLAGS) & ENCRYPTED) != 0;
  }
}
