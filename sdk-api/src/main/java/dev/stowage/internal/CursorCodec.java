package dev.stowage.internal;

import dev.stowage.item.AttributeValue;
import dev.stowage.item.Key;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Condition;
import dev.stowage.query.Query;
import dev.stowage.query.Scan;
import dev.stowage.query.SortCondition;
import dev.stowage.spi.Position;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Serialises {@link CursorState} to the plaintext that {@link CursorSealer} seals (layout in
 * docs/FORMAT.md, "Cursors"). Stateless and thread-safe.
 */
final class CursorCodec {
  /**
   * The version written for page cursors and delete-job tokens; version 1 (no index fingerprint) is
   * still read. Staying at version 2 where nothing new is carried keeps them readable by instances
   * that predate version 3.
   */
  static final int VERSION = 2;

  /** The version written for maintenance-job tokens: version 2 followed by the job's findings. */
  static final int MAINTENANCE_VERSION = 3;

  /**
   * The version written for maintenance-job tokens of a segmented walk: version 3 followed by the
   * number of segments and, for each, its bounds, a state byte (0 at its start, 1 at a checkpoint,
   * 2 done) and the checkpoint when the state is 1.
   */
  static final int SEGMENTED_VERSION = 4;

  private CursorCodec() {}

  static byte[] write(CursorState s) {
    ValueWire.Writer w = new ValueWire.Writer();
    w.u8(
            s.segments() != null
                ? SEGMENTED_VERSION
                : s.isMaintenance() ? MAINTENANCE_VERSION : VERSION)
        .string(s.namespace())
        .string(s.table())
        .varint(s.expiresAtMillis());
    if (s.query() != null) {
      w.u8(1);
      query(w, s.query());
      if (s.query().index().isPresent()) {
        int fp = s.indexFingerprint();
        w.u8(fp >>> 24).u8((fp >>> 16) & 0xFF).u8((fp >>> 8) & 0xFF).u8(fp & 0xFF);
      }
    } else {
      w.u8(2);
      scan(w, s.scan());
    }
    w.u8(s.towardAfter() ? 1 : 0);
    if (s.anchor() == null) {
      w.u8(0);
    } else {
      w.u8(1).u8(s.anchorInclusive() ? 1 : 0);
      Position p = s.anchor();
      w.value(p.key().partition());
      optional(w, p.key().sortOrNull());
      optional(w, p.indexSort());
    }
    w.varint(s.matched()).varint(s.deleted()).varint(s.blobsDeleted()).u8(s.job());
    if (s.isMaintenance()) {
      CursorState.Findings f = s.findings();
      w.varint(f.stale()).varint(f.missing()).varint(f.skipped());
    }
    if (s.segments() != null) {
      w.varint(s.segments().size());
      for (CursorState.SegmentMark m : s.segments()) {
        w.string(m.bounds());
        if (m.done()) {
          w.u8(2);
        } else if (m.checkpoint() == null) {
          w.u8(0);
        } else {
          w.u8(1).string(m.checkpoint());
        }
      }
    }
    return w.toByteArray();
  }

  static CursorState read(byte[] bytes) {
    ValueWire.Reader r = new ValueWire.Reader(bytes, 0, bytes.length);
    int version = r.u8();
    if (version < 1 || version > SEGMENTED_VERSION) {
      throw new ValueWire.MalformedException("unknown cursor version " + version);
    }
    String ns = r.string();
    String table = r.string();
    long expires = r.varint();
    int kind = r.u8();
    Query q = null;
    Scan sc = null;
    Integer fingerprint = null;
    if (kind == 1) {
      q = query(r);
      if (q.index().isPresent() && version >= 2) {
        fingerprint = (r.u8() << 24) | (r.u8() << 16) | (r.u8() << 8) | r.u8();
      }
    } else if (kind == 2) {
      sc = scan(r);
    } else {
      throw new ValueWire.MalformedException("unknown cursor kind " + kind);
    }
    boolean after = r.u8() == 1;
    Position anchor = null;
    boolean inclusive = false;
    if (r.u8() == 1) {
      inclusive = r.u8() == 1;
      KeyValue p = keyValue(r.value());
      KeyValue sort = optionalKey(r);
      KeyValue ix = optionalKey(r);
      anchor = new Position(sort == null ? Key.of(p) : Key.of(p, sort), ix);
    }
    long m = r.varint();
    long d = r.varint();
    long b = r.varint();
    int job = r.u8();
    CursorState.Findings findings = CursorState.Findings.NONE;
    if (version >= MAINTENANCE_VERSION) {
      findings = new CursorState.Findings(r.varint(), r.varint(), r.varint());
    }
    List<CursorState.SegmentMark> segments = null;
    if (version >= SEGMENTED_VERSION) {
      long count = r.varint();
      if (count < 1 || count > dev.stowage.spi.ScanSegment.MAX_TOTAL) {
        throw new ValueWire.MalformedException("bad segment count " + count);
      }
      segments = new java.util.ArrayList<>();
      for (long i = 0; i < count; i++) {
        String bounds = r.string();
        int st = r.u8();
        segments.add(
            switch (st) {
              case 0 -> new CursorState.SegmentMark(bounds, null, false);
              case 1 -> new CursorState.SegmentMark(bounds, r.string(), false);
              case 2 -> new CursorState.SegmentMark(bounds, null, true);
              default -> throw new ValueWire.MalformedException("bad segment state " + st);
            });
      }
    }
    if (!r.atEnd()) {
      throw new ValueWire.MalformedException("trailing cursor bytes");
    }
    return new CursorState(
        ns,
        table,
        expires,
        q,
        sc,
        after,
        anchor,
        inclusive,
        m,
        d,
        b,
        job,
        fingerprint,
        findings,
        segments);
  }

  private static void optional(ValueWire.Writer w, AttributeValue v) {
    if (v == null) {
      w.u8(0);
    } else {
      w.u8(1).value(v);
    }
  }

  private static KeyValue optionalKey(ValueWire.Reader r) {
    return r.u8() == 1 ? keyValue(r.value()) : null;
  }

  private static KeyValue keyValue(AttributeValue v) {
    if (v instanceof KeyValue k) {
      return k;
    }
    throw new ValueWire.MalformedException("cursor holds a non-key value where a key was expected");
  }

  private static void query(ValueWire.Writer w, Query q) {
    w.string(q.index().orElse(""));
    w.varint(q.partitionValues().size());
    q.partitionValues().forEach(w::value);
    if (q.sort().isPresent()) {
      SortCondition s = q.sort().get();
      w.u8(1).u8(s.op().ordinal()).varint(s.values().size());
      s.values().forEach(w::value);
      w.varint(s.high().size());
      s.high().forEach(w::value);
    } else {
      w.u8(0);
    }
    w.u8(q.descending() ? 1 : 0).varint(q.limit()).u8(q.consistentRead() ? 1 : 0);
    filter(w, q.filter().orElse(null));
    projection(w, q.projection().orElse(null));
  }

  private static Query query(ValueWire.Reader r) {
    String index = r.string();
    int n = (int) r.varint();
    List<KeyValue> partition = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      partition.add(keyValue(r.value()));
    }
    Query.Builder b = Query.partition(partition.toArray(KeyValue[]::new));
    if (!index.isEmpty()) {
      b.index(index);
    }
    if (r.u8() == 1) {
      SortCondition.Operator op = SortCondition.Operator.values()[r.u8()];
      List<KeyValue> values = keyValues(r);
      List<KeyValue> high = keyValues(r);
      b.sort(new SortCondition(op, values, high));
    }
    b.descending(r.u8() == 1).limit((int) r.varint()).consistentRead(r.u8() == 1);
    b.filter(filter(r));
    Set<String> projection = projection(r);
    if (projection != null) {
      b.project(projection.toArray(String[]::new));
    }
    return b.build();
  }

  private static List<KeyValue> keyValues(ValueWire.Reader r) {
    int n = (int) r.varint();
    List<KeyValue> l = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      l.add(keyValue(r.value()));
    }
    return l;
  }

  private static void scan(ValueWire.Writer w, Scan s) {
    w.varint(s.limit()).u8(s.consistentRead() ? 1 : 0);
    filter(w, s.filter());
    projection(w, s.projection());
  }

  private static Scan scan(ValueWire.Reader r) {
    int limit = (int) r.varint();
    boolean consistent = r.u8() == 1;
    Condition f = filter(r);
    Set<String> p = projection(r);
    return new Scan(limit, f, p, consistent);
  }

  private static void projection(ValueWire.Writer w, Set<String> p) {
    if (p == null) {
      w.u8(0);
      return;
    }
    w.u8(1).varint(p.size());
    p.stream().sorted().forEach(w::string);
  }

  private static Set<String> projection(ValueWire.Reader r) {
    if (r.u8() == 0) {
      return null;
    }
    int n = (int) r.varint();
    Set<String> s = new HashSet<>();
    for (int i = 0; i < n; i++) {
      s.add(r.string());
    }
    return s;
  }

  private static void filter(ValueWire.Writer w, Condition c) {
    if (c == null) {
      w.u8(0);
    } else if (c instanceof Condition.Exists e) {
      w.u8(1).string(e.attribute());
    } else if (c instanceof Condition.NotExists e) {
      w.u8(2).string(e.attribute());
    } else if (c instanceof Condition.Compare e) {
      w.u8(3).string(e.attribute()).u8(e.op().ordinal()).value(e.value());
    } else if (c instanceof Condition.Between e) {
      w.u8(4).string(e.attribute()).value(e.low()).value(e.high());
    } else if (c instanceof Condition.BeginsWith e) {
      w.u8(5).string(e.attribute()).value(e.prefix());
    } else if (c instanceof Condition.Contains e) {
      w.u8(6).string(e.attribute()).value(e.element());
    } else if (c instanceof Condition.And e) {
      w.u8(7).varint(e.conditions().size());
      e.conditions().forEach(x -> filter(w, x));
    } else if (c instanceof Condition.Or e) {
      w.u8(8).varint(e.conditions().size());
      e.conditions().forEach(x -> filter(w, x));
    } else if (c instanceof Condition.Not e) {
      w.u8(9);
      filter(w, e.condition());
    }
  }

  private static Condition filter(ValueWire.Reader r) {
    return filter(r, 0);
  }

  private static Condition filter(ValueWire.Reader r, int depth) {
    if (depth > ValueWire.MAX_DEPTH) {
      throw new ValueWire.MalformedException("filter nested too deeply");
    }
    int tag = r.u8();
    try {
      switch (tag) {
        case 0:
          return null;
        case 1:
          return new Condition.Exists(r.string());
        case 2:
          return new Condition.NotExists(r.string());
        case 3:
          return new Condition.Compare(r.string(), Condition.Op.values()[r.u8()], r.value());
        case 4:
          return new Condition.Between(r.string(), keyValue(r.value()), keyValue(r.value()));
        case 5:
          return new Condition.BeginsWith(r.string(), keyValue(r.value()));
        case 6:
          return new Condition.Contains(r.string(), r.value());
        case 7:
        case 8:
          {
            int n = (int) r.varint();
            List<Condition> l = new ArrayList<>();
            for (int i = 0; i < n; i++) {
              l.add(filter(r, depth + 1));
            }
            return tag == 7 ? new Condition.And(l) : new Condition.Or(l);
          }
        case 9:
          return new Condition.Not(filter(r, depth + 1));
        default:
          throw new ValueWire.MalformedException("unknown filter tag " + tag);
      }
    } catch (IllegalArgumentException | ArrayIndexOutOfBoundsException | NullPointerException e) {
      throw new ValueWire.MalformedException("invalid filter: " + e.getMessage(), e);
    }
  }
}
