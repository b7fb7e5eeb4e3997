package dev.stowage.internal.usage;

import dev.stowage.usage.HotKey;
import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.lang.reflect.RecordComponent;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;

/**
 * The usage snapshot file: Java properties (UTF-8), format {@code stowage-usage-1}. Tables are
 * {@code table.<i>.<component>} with one key per {@link TableUsage} component; rankings are {@code
 * hot.<i>.<component>} with their keys as {@code hot.<i>.<ranking>.<j>=<count>,<error>,<key>}.
 * Unknown keys are ignored, so later versions can add components. Stateless.
 */
public final class SnapshotFiles {
  static final String FORMAT = "stowage-usage-1";
  private static final List<String> RANKINGS = List.of("byRequests", "byBytes", "byThrottles");

  private SnapshotFiles() {}

  /** Writes {@code s} to {@code file} through a temporary file and an atomic rename. */
  public static void write(UsageSnapshot s, Path file) throws IOException {
    Properties p = new Properties();
    p.setProperty("format", FORMAT);
    p.setProperty("backend", s.backend());
    p.setProperty("since", s.since().toString());
    p.setProperty("at", s.at().toString());
    for (int i = 0; i < s.tables().size(); i++) {
      TableUsage t = s.tables().get(i);
      for (RecordComponent c : TableUsage.class.getRecordComponents()) {
        p.setProperty("table." + i + "." + c.getName(), String.valueOf(value(c, t)));
      }
    }
    for (int i = 0; i < s.hotKeys().size(); i++) {
      HotKeys h = s.hotKeys().get(i);
      String pre = "hot." + i + ".";
      p.setProperty(pre + "namespace", h.namespace());
      p.setProperty(pre + "table", h.table());
      p.setProperty(pre + "index", h.index());
      p.setProperty(pre + "window", h.window().toString());
      p.setProperty(pre + "slices", String.valueOf(h.slices()));
      p.setProperty(pre + "counters", String.valueOf(h.counters()));
      p.setProperty(pre + "requests", String.valueOf(h.requests()));
      p.setProperty(pre + "bytes", String.valueOf(h.bytes()));
      p.setProperty(pre + "throttles", String.valueOf(h.throttles()));
      List<List<HotKey>> lists = List.of(h.byRequests(), h.byBytes(), h.byThrottles());
      for (int r = 0; r < RANKINGS.size(); r++) {
        List<HotKey> keys = lists.get(r);
        for (int j = 0; j < keys.size(); j++) {
          HotKey k = keys.get(j);
          p.setProperty(
              pre + RANKINGS.get(r) + "." + j, k.count() + "," + k.error() + "," + k.key());
        }
      }
    }
    Path dir = file.toAbsolutePath().getParent();
    Files.createDirectories(dir);
    Path tmp = Files.createTempFile(dir, file.getFileName().toString(), ".tmp");
    try {
      try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
        p.store(w, "Stowage usage snapshot");
      }
      try {
        Files.move(tmp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
      }
    } finally {
      Files.deleteIfExists(tmp);
    }
  }

  /** Reads a file {@link #write} wrote. */
  public static UsageSnapshot read(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    if (!FORMAT.equals(p.getProperty("format"))) {
      throw new IOException(file + " is not a Stowage usage snapshot (format " + FORMAT + ")");
    }
    try {
      List<TableUsage> tables = new ArrayList<>();
      for (int i = 0; p.containsKey("table." + i + ".table"); i++) {
        tables.add(tableUsage(p, "table." + i + "."));
      }
      List<HotKeys> hot = new ArrayList<>();
      for (int i = 0; p.containsKey("hot." + i + ".table"); i++) {
        hot.add(hotKeys(p, "hot." + i + "."));
      }
      return new UsageSnapshot(
          p.getProperty("backend", ""),
          Instant.parse(p.getProperty("since")),
          Instant.parse(p.getProperty("at")),
          tables,
          hot);
    } catch (RuntimeException e) {
      throw new IOException(file + " is not a valid Stowage usage snapshot: " + e.getMessage(), e);
    }
  }

  private static Object value(RecordComponent c, Object record) {
    try {
      return c.getAccessor().invoke(record);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static TableUsage tableUsage(Properties p, String pre) {
    RecordComponent[] cs = TableUsage.class.getRecordComponents();
    Object[] args = new Object[cs.length];
    Class<?>[] types = new Class<?>[cs.length];
    for (int i = 0; i < cs.length; i++) {
      types[i] = cs[i].getType();
      String v = p.getProperty(pre + cs[i].getName());
      if (types[i] == String.class) {
        args[i] = v == null ? "" : v;
      } else if (types[i] == long.class) {
        args[i] = v == null ? 0L : Long.parseLong(v);
      } else if (types[i] == double.class) {
        args[i] = v == null ? 0.0 : Double.parseDouble(v);
      } else {
        throw new IllegalStateException("unexpected component type " + types[i]);
      }
    }
    try {
      return TableUsage.class.getDeclaredConstructor(types).newInstance(args);
    } catch (ReflectiveOperationException e) {
      throw new IllegalStateException(e);
    }
  }

  private static HotKeys hotKeys(Properties p, String pre) {
    List<List<HotKey>> lists = new ArrayList<>();
    for (String ranking : RANKINGS) {
      List<HotKey> keys = new ArrayList<>();
      for (int j = 0; p.containsKey(pre + ranking + "." + j); j++) {
        String[] parts = p.getProperty(pre + ranking + "." + j).split(",", 3);
        keys.add(new HotKey(parts[2], Long.parseLong(parts[0]), Long.parseLong(parts[1])));
      }
      lists.add(keys);
    }
    return new HotKeys(
        p.getProperty(pre + "namespace", ""),
        p.getProperty(pre + "table"),
        p.getProperty(pre + "index", ""),
        Duration.parse(p.getProperty(pre + "window")),
        Integer.parseInt(p.getProperty(pre + "slices")),
        Integer.parseInt(p.getProperty(pre + "counters")),
        Long.parseLong(p.getProperty(pre + "requests")),
        Long.parseLong(p.getProperty(pre + "bytes")),
        Long.parseLong(p.getProperty(pre + "throttles")),
        lists.get(0),
        lists.get(1),
        lists.get(2));
  }
}
