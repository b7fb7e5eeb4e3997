package dev.stowage.bench;

import dev.stowage.item.Item;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The ledger items {@link CrossBackendCeilings} copies (those of {@code CrossBackendMigrationTest},
 * without attachments) and their key parts, as every raw client and the seeding name them.
 */
final class LedgerItems {
  private LedgerItems() {}

  /** The accounts the items are spread over, round robin: the partitions of every store. */
  static final int ACCOUNTS = 50;

  /** The ledger items of {@code CrossBackendMigrationTest}, without attachments. */
  static List<Item> items(int n) {
    List<Item> items = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      items.add(
          Item.builder()
              .put("account", account(i))
              .put("seq", i)
              .put("day", day(i))
              .put("amount", new BigDecimal(i + ".25"))
              .put("memo", memo(i))
              .put("iban", "DE" + (1000000 + i))
              .build());
    }
    // In key order, as a scan of the source hands them over.
    items.sort(
        (a, b) -> {
          int c = a.getString("account").compareTo(b.getString("account"));
          return c != 0 ? c : Long.compare(seq(a), seq(b));
        });
    return items;
  }

  private static String account(int i) {
    return "acct-" + (i % ACCOUNTS);
  }

  private static String day(int i) {
    return "2026-11-" + (10 + i % 20);
  }

  private static String memo(int i) {
    return "transfer for invoice " + i + " ".repeat(80);
  }

  static long seq(Item item) {
    return item.getNumber("seq").longValue();
  }

  static String rowKey(long seq) {
    return String.format(Locale.ROOT, "%010d", seq);
  }

  /**
   * {@code parallelism + 1} bounds cutting the sorted account names into ranges of about equal
   * size: the first is below every account, the last above.
   */
  static List<String> accountBounds(int parallelism) {
    List<String> accounts = new ArrayList<>();
    for (int a = 0; a < ACCOUNTS; a++) {
      accounts.add("acct-" + a);
    }
    accounts.sort(null);
    List<String> bounds = new ArrayList<>();
    bounds.add("");
    int ranges = Math.min(parallelism, ACCOUNTS);
    for (int s = 1; s < ranges; s++) {
      bounds.add(accounts.get(s * ACCOUNTS / ranges));
    }
    bounds.add("~");
    return bounds;
  }
}
