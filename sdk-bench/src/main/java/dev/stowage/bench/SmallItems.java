package dev.stowage.bench;

import dev.stowage.item.Item;
import java.util.HashMap;
import java.util.Map;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

/**
 * The small (about 150 bytes) item of the DynamoDB benchmarks, built deterministically from its
 * partition number and sort key in each side's own representation: a Stowage {@link Item}, a raw
 * attribute map and an Enhanced Client {@link BenchUser}. All three hold the same values.
 */
public final class SmallItems {
  /** Partition and sort key attribute names. */
  public static final String PK = "pk", SK = "sk";

  private SmallItems() {}

  /** The partition key value of partition {@code p}. */
  public static String partition(String prefix, int p) {
    return prefix + "#" + String.format("%05d", p);
  }

  /** The item as Stowage builds it. */
  public static Item stowage(String pk, long sk) {
    return Item.builder()
        .put(PK, pk)
        .put(SK, sk)
        .put("name", name(sk))
        .put("email", email(pk, sk))
        .put("age", 20 + sk % 50)
        .put("active", sk % 3 != 0)
        .put("score", 1000 + sk * 37)
        .put("city", city(sk))
        .build();
  }

  /** The item as a raw attribute map. */
  public static Map<String, AttributeValue> raw(String pk, long sk) {
    Map<String, AttributeValue> m = new HashMap<>(16);
    m.put(PK, AttributeValue.fromS(pk));
    m.put(SK, AttributeValue.fromN(Long.toString(sk)));
    m.put("name", AttributeValue.fromS(name(sk)));
    m.put("email", AttributeValue.fromS(email(pk, sk)));
    m.put("age", AttributeValue.fromN(Long.toString(20 + sk % 50)));
    m.put("active", AttributeValue.fromBool(sk % 3 != 0));
    m.put("score", AttributeValue.fromN(Long.toString(1000 + sk * 37)));
    m.put("city", AttributeValue.fromS(city(sk)));
    return m;
  }

  /** The item as an Enhanced Client bean. */
  public static BenchUser bean(String pk, long sk) {
    BenchUser u = new BenchUser();
    u.setPk(pk);
    u.setSk(sk);
    u.setName(name(sk));
    u.setEmail(email(pk, sk));
    u.setAge((int) (20 + sk % 50));
    u.setActive(sk % 3 != 0);
    u.setScore(1000 + sk * 37);
    u.setCity(city(sk));
    return u;
  }

  private static String name(long sk) {
    return "Ada Lovelace the " + sk + "th";
  }

  private static String email(String pk, long sk) {
    return pk.replace('#', '.') + "." + sk + "@example.org";
  }

  private static String city(long sk) {
    return CITIES[(int) (sk % CITIES.length)];
  }

  private static final String[] CITIES = {"London", "Zürich", "São Paulo", "Kyoto", "Nairobi"};
}
