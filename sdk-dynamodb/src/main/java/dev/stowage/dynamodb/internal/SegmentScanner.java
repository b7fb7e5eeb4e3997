package dev.stowage.dynamodb.internal;

import dev.stowage.spi.IndexLayout;
import dev.stowage.spi.ScanSegment;
import dev.stowage.spi.SegmentPage;
import dev.stowage.spi.SegmentScan;
import dev.stowage.spi.StoredItem;
import dev.stowage.spi.TableLayout;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ScanRequest;
import software.amazon.awssdk.services.dynamodb.model.ScanResponse;

/**
 * Segmented scans as DynamoDB's native parallel scan: segment {@code i} of {@code n} is a Scan with
 * {@code Segment = i} and {@code TotalSegments = n}, of the table or, for an index, of its GSI
 * (Stowage's own, which projects every attribute, or the application's native GSI or LSI). DynamoDB
 * assigns each item to one segment by the hash of its partition key, so a plan needs no request and
 * an item never moves between table segments; in an index, an item sits where its index values put
 * it, and moves when they change.
 *
 * <p>A checkpoint is the scan's LastEvaluatedKey: each of its attributes (table key, and index key
 * for an index scan) as {@code base64url(name).type.base64url(value)}, joined by {@code ~}, with
 * type {@code S}, {@code N} or {@code B}.
 */
public final class SegmentScanner {
  private final DynamoDbClient client;
  private final CapacityMeter meter;
  private final QueryRunner queries;

  public SegmentScanner(DynamoDbClient client, CapacityMeter meter, QueryRunner queries) {
    this.client = client;
    this.meter = meter;
    this.queries = queries;
  }

  /** Plans {@code total} native segments; nothing is read. */
  public List<ScanSegment> plan(TableLayout table, String index, int total) {
    if (total < 1 || total > ScanSegment.MAX_TOTAL) {
      throw new IllegalArgumentException(
          "a plan has 1 to " + ScanSegment.MAX_TOTAL + " segments, not " + total);
    }
    if (index != null) {
      index(table, index);
    }
    List<ScanSegment> out = new ArrayList<>(total);
    for (int i = 0; i < total; i++) {
      out.add(new ScanSegment(index, i, total, ""));
    }
    return out;
  }

  /** Reads a page of a segment, skipping DynamoDB's empty pages until items or the end come. */
  public SegmentPage scan(TableLayout table, String physical, SegmentScan s) {
    ScanSegment seg = s.segment();
    if (!seg.bounds().isEmpty()) {
      throw new IllegalArgumentException(seg + " was not planned by the DynamoDB driver");
    }
    IndexLayout ix = seg.index() == null ? null : index(table, seg.index());
    String indexName = null;
    boolean consistent = s.consistentRead();
    boolean partial = false;
    if (ix != null) {
      if (ix.isNative()) {
        NativeIndexes.Info info = queries.nativeInfo(table, physical, ix);
        indexName = ix.nativeName();
        consistent &= info.local();
        partial = !info.projectsAll();
      } else {
        indexName = TableNames.indexName(ix.name());
        consistent = false;
      }
    }
    Expressions ex = new Expressions();
    String projection = partial ? null : ex.projection(s.attributes());
    Map<String, AttributeValue> start = s.checkpoint() == null ? null : decode(s.checkpoint());
    List<StoredItem> out = new ArrayList<>(Math.min(s.limit(), 1000));
    while (true) {
      ScanRequest.Builder req =
          ScanRequest.builder()
              .tableName(physical)
              .indexName(indexName)
              .segment(seg.number())
              .totalSegments(seg.total())
              .limit(s.limit() - out.size())
              .consistentRead(Requests.flag(consistent))
              .projectionExpression(projection)
              .expressionAttributeNames(projection == null ? null : ex.attributeNames())
              .returnConsumedCapacity(meter.learn(table, physical));
      if (start != null) {
        req.exclusiveStartKey(start);
      }
      ScanResponse resp;
      try {
        resp = client.scan(req.build());
      } catch (SdkException e) {
        throw Errors.translate("Scan " + physical + (indexName == null ? "" : "." + indexName), e);
      }
      meter.record(resp.consumedCapacity(), false);
      List<StoredItem> page = new ArrayList<>(resp.items().size());
      resp.items().forEach(i -> page.add(Stored.of(i)));
      out.addAll(partial ? queries.whole(table, physical, ix, page, consistent) : page);
      boolean lek = resp.hasLastEvaluatedKey() && !resp.lastEvaluatedKey().isEmpty();
      if (!lek) {
        return SegmentPage.last(out);
      }
      start = resp.lastEvaluatedKey();
      if (out.size() >= s.limit() || (!out.isEmpty() && partial)) {
        return new SegmentPage(out, encode(start), false);
      }
    }
  }

  private static IndexLayout index(TableLayout table, String index) {
    return table
        .index(index)
        .orElseThrow(
            () ->
                new IllegalArgumentException(
                    "table '" + table.ref() + "' has no index '" + index + "'"));
  }

  static String encode(Map<String, AttributeValue> key) {
    Base64.Encoder b64 = Base64.getUrlEncoder().withoutPadding();
    StringBuilder sb = new StringBuilder();
    for (Map.Entry<String, AttributeValue> e : new TreeMap<>(key).entrySet()) {
      AttributeValue v = e.getValue();
      String type;
      byte[] value;
      if (v.s() != null) {
        type = "S";
        value = v.s().getBytes(StandardCharsets.UTF_8);
      } else if (v.n() != null) {
        type = "N";
        value = v.n().getBytes(StandardCharsets.UTF_8);
      } else if (v.b() != null) {
        type = "B";
        value = v.b().asByteArray();
      } else {
        throw new IllegalStateException("a key attribute of type " + v.type());
      }
      if (sb.length() > 0) {
        sb.append('~');
      }
      sb.append(b64.encodeToString(e.getKey().getBytes(StandardCharsets.UTF_8)))
          .append('.')
          .append(type)
          .append('.')
          .append(b64.encodeToString(value));
    }
    return sb.toString();
  }

  static Map<String, AttributeValue> decode(String checkpoint) {
    Base64.Decoder b64 = Base64.getUrlDecoder();
    Map<String, AttributeValue> out = new TreeMap<>();
    try {
      for (String part : checkpoint.split("~")) {
        String[] f = part.split("\\.", -1);
        if (f.length != 3) {
          throw new IllegalArgumentException("malformed attribute");
        }
        String name = new String(b64.decode(f[0]), StandardCharsets.UTF_8);
        byte[] value = b64.decode(f[2]);
        AttributeValue v =
            switch (f[1]) {
              case "S" -> AttributeValue.fromS(new String(value, StandardCharsets.UTF_8));
              case "N" -> AttributeValue.fromN(new String(value, StandardCharsets.UTF_8));
              case "B" -> AttributeValue.fromB(SdkBytes.fromByteArray(value));
              default -> throw new IllegalArgumentException("unknown type " + f[1]);
            };
        out.put(name, v);
      }
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "not a checkpoint of a DynamoDB segment: " + e.getMessage(), e);
    }
    return out;
  }
}
