package dev.stowage.bench;

import dev.stowage.Stowage;
import dev.stowage.Table;
import dev.stowage.dynamodb.DynamoDbDriver;
import dev.stowage.dynamodb.internal.AttributeMapper;
import dev.stowage.dynamodb.internal.Tokens;
import dev.stowage.item.Item;
import dev.stowage.item.Key;
import dev.stowage.query.Update;
import dev.stowage.typed.TypedSchema;
import dev.stowage.typed.TypedTable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import software.amazon.awssdk.enhanced.dynamodb.TableSchema;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeAction;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.AttributeValueUpdate;
import software.amazon.awssdk.services.dynamodb.model.ComparisonOperator;
import software.amazon.awssdk.services.dynamodb.model.ExpectedAttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;

/**
 * Issue 18's comparisons with the sides alternating in blocks in one JVM ({@link Alternating}), so
 * that load on a shared machine moves both sides alike (separate JMH forks, as in {@link
 * TypedMappingBench} and {@link TypedDynamoDbBench}, cannot promise that):
 *
 * <ul>
 *   <li>{@code mapping}: record or immutable class to DynamoDB's attribute map and back through
 *       Stowage's typed schema and the DynamoDB driver's translation, against the Enhanced Client's
 *       {@code TableSchema.fromImmutableClass} on the same class (target at most 1.0); Stowage's
 *       {@code Item} to and from the map against {@code TableSchema.fromBean} (target at most 1.2);
 *   <li>{@code dynamodb}: {@code TypedTable.get}/{@code put} of the record against {@code
 *       Table.get}/{@code put} of the same item on one DynamoDB Local (target at most 1.05); a
 *       typed put is an update that keeps attributes the class does not map, so it is also set
 *       against {@code Table.update} of the same attributes, and a typed {@code replace} (a
 *       whole-item put) against {@code Table.put}; and for reference the floor under them, a bare
 *       UpdateItem of the same attributes against a bare PutItem, in update expressions (the new
 *       item returned) and in AttributeUpdates (nothing returned, as Stowage sends a typed put).
 * </ul>
 *
 * <pre>
 * java -cp sdk-bench/target/benchmarks.jar dev.stowage.bench.TypedComparison mapping \
 *     --rounds 5 --block 200 --warmup 1000
 * </pre>
 */
public final class TypedComparison {
  private static final String TOKEN_ATTRIBUTE = "stowage:tok";

  /** Where results go so that the JIT cannot drop the work that made them. */
  static Object sink;

  private TypedComparison() {}

  public static void main(String[] argv) {
    if (argv.length == 0 || !List.of("mapping", "dynamodb").contains(argv[0])) {
      throw new IllegalArgumentException(
          "usage: TypedComparison mapping|dynamodb [--rounds N --block MS --warmup MS --cpu]");
    }
    Alternating.Args args = Alternating.Args.parse(Arrays.copyOfRange(argv, 1, argv.length));
    Alternating alt = args.harness();
    List<String> results = argv[0].equals("mapping") ? mapping(alt) : dynamodb(alt);
    System.out.println();
    System.out.print(args.header());
    results.forEach(System.out::print);
    // DynamoDB Local leaves a non-daemon scheduler thread behind after stop().
    System.exit(0);
  }

  private static List<String> mapping(Alternating alt) {
    TableSchema<TypedUser> enhanced = TableSchema.fromImmutableClass(TypedUser.class);
    TableSchema<BenchUser> enhancedBean = TableSchema.fromBean(BenchUser.class);
    TypedSchema<TypedUser> typedImmutable = TypedSchema.of(TypedUser.class);
    TypedSchema<TypedUserRecord> typedRecord = TypedSchema.of(TypedUserRecord.class);
    int n = 64;
    TypedUserRecord[] records = new TypedUserRecord[n];
    TypedUser[] immutables = new TypedUser[n];
    BenchUser[] beans = new BenchUser[n];
    Item[] items = new Item[n];
    List<Map<String, AttributeValue>> stored = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      String pk = SmallItems.partition("u", i);
      records[i] = TypedUserRecord.of(pk, i);
      immutables[i] = TypedUser.of(records[i]);
      beans[i] = SmallItems.bean(pk, i);
      items[i] = SmallItems.stowage(pk, i);
      stored.add(SmallItems.raw(pk, i));
      // Compared as items: numbers are equal by value ("1E+3" is "1000").
      Item typedMap = read(AttributeMapper.toNative(typedRecord.toItem(records[i]).attributes()));
      if (!typedMap.equals(read(enhanced.itemToMap(immutables[i], true)))
          || !typedMap.equals(read(enhancedBean.itemToMap(beans[i], true)))
          || !typedMap.equals(read(AttributeMapper.toNative(items[i].attributes())))
          || !typedMap.equals(read(stored.get(i)))
          || !typedRecord
              .fromItem(AttributeMapper.itemFrom(stored.get(i), TOKEN_ATTRIBUTE))
              .equals(records[i])
          || !AttributeMapper.itemFrom(stored.get(i), TOKEN_ATTRIBUTE).equals(items[i])) {
        throw new IllegalStateException("the mappings disagree on item " + i);
      }
    }
    List<String> out = new ArrayList<>();
    out.add(
        alt.compare(
            "typed record to map vs Enhanced fromImmutableClass",
            "",
            i -> sink = AttributeMapper.toNative(typedRecord.toItem(records[i & 63]).attributes()),
            i -> sink = enhanced.itemToMap(immutables[i & 63], true),
            1.0));
    out.add(
        alt.compare(
            "typed immutable to map vs Enhanced fromImmutableClass",
            "",
            i ->
                sink =
                    AttributeMapper.toNative(
                        typedImmutable.toItem(immutables[i & 63]).attributes()),
            i -> sink = enhanced.itemToMap(immutables[i & 63], true),
            1.0));
    out.add(
        alt.compare(
            "typed record from map vs Enhanced fromImmutableClass",
            "",
            i ->
                sink =
                    typedRecord.fromItem(
                        AttributeMapper.itemFrom(stored.get(i & 63), TOKEN_ATTRIBUTE)),
            i -> sink = enhanced.mapToItem(stored.get(i & 63)),
            1.0));
    out.add(
        alt.compare(
            "typed immutable from map vs Enhanced fromImmutableClass",
            "",
            i ->
                sink =
                    typedImmutable.fromItem(
                        AttributeMapper.itemFrom(stored.get(i & 63), TOKEN_ATTRIBUTE)),
            i -> sink = enhanced.mapToItem(stored.get(i & 63)),
            1.0));
    out.add(
        alt.compare(
            "translation Item to map vs Enhanced fromBean",
            "",
            i -> sink = AttributeMapper.toNative(items[i & 63].attributes()),
            i -> sink = enhancedBean.itemToMap(beans[i & 63], true),
            1.2));
    out.add(
        alt.compare(
            "translation Item from map vs Enhanced fromBean",
            "",
            i -> sink = AttributeMapper.itemFrom(stored.get(i & 63), TOKEN_ATTRIBUTE),
            i -> sink = enhancedBean.mapToItem(stored.get(i & 63)),
            1.2));
    return out;
  }

  private static Item read(Map<String, AttributeValue> stored) {
    return AttributeMapper.itemFrom(stored, TOKEN_ATTRIBUTE);
  }

  private static List<String> dynamodb(Alternating alt) {
    int partitions = TypedDynamoDbBench.PARTITIONS;
    int perPartition = TypedDynamoDbBench.PER_PARTITION;
    List<String> out = new ArrayList<>();
    try (DynamoLocal local = DynamoLocal.start()) {
      Stowage stowage = Stowage.builder(DynamoDbDriver.create(local.client())).build();
      TypedTable<TypedUserRecord> typed = stowage.ensureTable(TypedUserRecord.class);
      Table table = typed.table();
      List<Item> items = new ArrayList<>();
      for (int p = 0; p < partitions; p++) {
        for (int s = 0; s < perPartition; s++) {
          items.add(SmallItems.stowage(SmallItems.partition("u", p), s));
        }
      }
      table.batchPut(items);
      out.add(
          alt.compare(
              "dynamodb typed get vs untyped",
              "",
              i ->
                  sink =
                      typed
                          .get(
                              typed.key(
                                  SmallItems.partition("u", i % partitions),
                                  (long) (i % perPartition)))
                          .orElseThrow(),
              i ->
                  sink =
                      table
                          .get(Key.of(SmallItems.partition("u", i % partitions), i % perPartition))
                          .orElseThrow(),
              1.05));
      out.add(
          alt.compare(
              "dynamodb typed put vs untyped",
              "",
              i -> {
                long sk = i % perPartition;
                String pk = SmallItems.partition("typ", i % partitions);
                sink = typed.put(TypedUserRecord.direct(pk, sk));
              },
              i ->
                  table.put(
                      SmallItems.stowage(
                          SmallItems.partition("unt", i % partitions), i % perPartition)),
              1.05));
      // The like-for-like pair of a typed put: the same UpdateItem (set every mapped non-key
      // attribute, so that attributes the class does not map survive), sent untyped.
      out.add(
          alt.compare(
              "dynamodb typed put vs untyped update, same attributes",
              "",
              i -> {
                long sk = i % perPartition;
                String pk = SmallItems.partition("tpu", i % partitions);
                sink = typed.put(TypedUserRecord.direct(pk, sk));
              },
              i -> {
                long sk = i % perPartition;
                String pk = SmallItems.partition("upu", i % partitions);
                Update.Builder u = Update.builder();
                SmallItems.stowage(pk, sk)
                    .attributes()
                    .forEach(
                        (name, value) -> {
                          if (!name.equals(SmallItems.PK) && !name.equals(SmallItems.SK)) {
                            u.set(name, value);
                          }
                        });
                sink = table.update(Key.of(pk, sk), u.build());
              },
              1.05));
      out.add(
          alt.compare(
              "dynamodb typed replace vs untyped put",
              "",
              i -> {
                long sk = i % perPartition;
                String pk = SmallItems.partition("rep", i % partitions);
                sink = typed.replace(TypedUserRecord.direct(pk, sk));
              },
              i ->
                  table.put(
                      SmallItems.stowage(
                          SmallItems.partition("unt", i % partitions), i % perPartition)),
              1.05));
      // The floor under a typed put: the same UpdateItem and PutItem sent with the bare client, in
      // the form Stowage used to send (update and condition expressions, the new item returned)
      // and in the one it sends now (AttributeUpdates and Expected, nothing returned).
      DynamoDbClient client = local.client();
      String physical = client.listTables().tableNames().get(0);
      RawUpdates raw = new RawUpdates(client, physical);
      out.add(
          alt.compare(
              "(raw UpdateItem, expressions, ALL_NEW vs raw PutItem)",
              "",
              i -> sink = raw.updateWithExpressions(i % partitions, i % perPartition),
              i -> sink = raw.put(i % partitions, i % perPartition),
              Double.NaN));
      out.add(
          alt.compare(
              "(raw UpdateItem, AttributeUpdates, NONE vs raw PutItem)",
              "",
              i -> sink = raw.updateWithAttributeUpdates(i % partitions, i % perPartition),
              i -> sink = raw.put(i % partitions, i % perPartition),
              Double.NaN));
      stowage.close();
    }
    return out;
  }

  /**
   * Raw requests writing the benchmark item with the token attribute Stowage adds, each side under
   * its own partitions: a PutItem, and UpdateItems setting every non-key attribute under the
   * condition Stowage adds to a native update (no overflow pointer).
   */
  private record RawUpdates(DynamoDbClient client, String table) {
    private static final String POINTER = "stowage:ovf";

    private Map<String, AttributeValue> item(String prefix, int p, long sk) {
      Map<String, AttributeValue> m = SmallItems.raw(SmallItems.partition(prefix, p), sk);
      m.put(TOKEN_ATTRIBUTE, AttributeValue.fromS(Tokens.next()));
      return m;
    }

    private static Map<String, AttributeValue> takeKey(Map<String, AttributeValue> m) {
      return Map.of(SmallItems.PK, m.remove(SmallItems.PK), SmallItems.SK, m.remove(SmallItems.SK));
    }

    Object put(int p, long sk) {
      return client.putItem(b -> b.tableName(table).item(item("rawput", p, sk)));
    }

    Object updateWithExpressions(int p, long sk) {
      Map<String, AttributeValue> m = item("rawexpr", p, sk);
      Map<String, AttributeValue> key = takeKey(m);
      Map<String, String> names = new HashMap<>();
      Map<String, AttributeValue> values = new HashMap<>();
      StringBuilder set = new StringBuilder("SET ");
      m.forEach(
          (name, value) -> {
            int n = names.size();
            set.append(n == 0 ? "" : ", ").append("#n").append(n).append(" = :v").append(n);
            names.put("#n" + n, name);
            values.put(":v" + n, value);
          });
      names.put("#p", POINTER);
      return client.updateItem(
          b ->
              b.tableName(table)
                  .key(key)
                  .updateExpression(set.toString())
                  .conditionExpression("attribute_not_exists(#p)")
                  .expressionAttributeNames(names)
                  .expressionAttributeValues(values)
                  .returnValues(ReturnValue.ALL_NEW));
    }

    Object updateWithAttributeUpdates(int p, long sk) {
      Map<String, AttributeValue> m = item("rawattr", p, sk);
      Map<String, AttributeValue> key = takeKey(m);
      Map<String, AttributeValueUpdate> updates = new HashMap<>();
      m.forEach(
          (name, value) ->
              updates.put(
                  name,
                  AttributeValueUpdate.builder().action(AttributeAction.PUT).value(value).build()));
      return client.updateItem(
          b ->
              b.tableName(table)
                  .key(key)
                  .attributeUpdates(updates)
                  .expected(
                      Map.of(
                          POINTER,
                          ExpectedAttributeValue.builder()
                              .comparisonOperator(ComparisonOperator.NULL)
                              .build()))
                  .returnValues(ReturnValue.NONE));
    }
  }
}
