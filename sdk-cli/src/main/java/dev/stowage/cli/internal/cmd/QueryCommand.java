package dev.stowage.cli.internal.cmd;

import dev.stowage.Table;
import dev.stowage.TableSpec;
import dev.stowage.cli.Main;
import dev.stowage.cli.internal.CliException;
import dev.stowage.cli.internal.OpenedStore;
import dev.stowage.console.internal.json.Json;
import dev.stowage.item.Item;
import dev.stowage.item.KeyValue;
import dev.stowage.query.Page;
import dev.stowage.query.Query;
import dev.stowage.query.SortCondition;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParentCommand;

/** {@code stowage query}. */
@Command(
    name = "query",
    mixinStandardHelpOptions = true,
    description =
        "Query one partition of the table or of an index. Items go to standard output as JSON"
            + " lines; the page's cursors go to standard error as one JSON object.")
public final class QueryCommand implements Callable<Integer> {
  @ParentCommand Main main;
  @Mixin TableOptions table;
  @Mixin OutputOptions output;
  @Mixin QueryOptions query;

  @Option(names = "--limit", defaultValue = "100", description = "Items per page (1-1000).")
  int limit;

  @Option(names = "--cursor", description = "Continue from a cursor a previous page printed.")
  String cursor;

  @Option(
      names = "--all",
      description =
          "Follow the cursors to the end of the query (the before cursors with --desc, else the"
              + " after cursors).")
  boolean all;

  @Option(names = "--raw", description = "Show the stored form of each item.")
  boolean raw;

  @Override
  public Integer call() {
    try (OpenedStore store = table.open()) {
      Table t = store.table();
      Page page = cursor != null ? t.page(cursor) : t.query(query.build(limit, t.spec()));
      long n = 0;
      UndeclaredEncryption hint = new UndeclaredEncryption(store.spec());
      while (true) {
        List<Item> items = raw ? RawReads.storedForms(store, page.items()) : page.items();
        for (Item i : items) {
          main.out().println(output.render(i));
          if (!raw) {
            hint.look(i);
          }
        }
        n += items.size();
        boolean desc = query.descending;
        if (!all || (desc ? !page.hasBefore() : !page.hasAfter())) {
          break;
        }
        page = t.page(desc ? page.before().orElseThrow() : page.after().orElseThrow());
      }
      Map<String, Object> info = new LinkedHashMap<>();
      info.put("items", java.math.BigDecimal.valueOf(n));
      info.put("hasBefore", page.hasBefore());
      info.put("before", page.before().orElse(null));
      info.put("hasAfter", page.hasAfter());
      info.put("after", page.after().orElse(null));
      main.err().println(Json.write(info));
      hint.report(main.err());
      return 0;
    }
  }

  /** The flags describing a query. */
  public static final class QueryOptions {
    @Option(names = "--index", description = "Query this index instead of the primary key.")
    String index;

    @Option(
        names = {"-p", "--partition"},
        description =
            "The partition value, or for a multi-column index a JSON array of values"
                + " (e.g. '[\"porto\",\"paid\"]').")
    String partition;

    @Option(
        names = "--sort-op",
        description = "eq, lt, le, gt, ge, between or begins (with --sort, and --sort-high).")
    String sortOp;

    @Option(names = "--sort", description = "Sort operand: a value or a JSON array (tuple).")
    String sort;

    @Option(names = "--sort-high", description = "High bound for between.")
    String sortHigh;

    @Option(names = "--desc", description = "Descending sort order.")
    boolean descending;

    /** The query on a table of {@code spec}. */
    Query build(int limit, TableSpec spec) {
      if (partition == null) {
        throw new CliException("--partition is required");
      }
      if (index != null && spec.index(index).isEmpty()) {
        // The command's own spec lacks it: a usage error, not a missing resource.
        throw new CliException(
            "the table's spec declares no index '"
                + index
                + "'"
                + (spec.indexes().isEmpty()
                    ? ""
                    : " (it declares "
                        + spec.indexes().stream()
                            .map(i -> "'" + i.name() + "'")
                            .collect(java.util.stream.Collectors.joining(", "))
                        + ")")
                + "; declare it with --spec-index NAME=P1,P2/S1,S2 or in the --spec file");
      }
      List<KeyValue> p = Args.tuple(partition, "--partition");
      Query.Builder b =
          index == null
              ? Query.partition(p.toArray(KeyValue[]::new))
              : Query.index(index).partition(p.toArray(KeyValue[]::new));
      if (sortOp != null || sort != null) {
        if (sortOp == null || sort == null) {
          throw new CliException("--sort-op and --sort go together");
        }
        KeyValue[] v = Args.tuple(sort, "--sort").toArray(KeyValue[]::new);
        SortCondition c =
            switch (sortOp.toLowerCase(Locale.ROOT)) {
              case "eq" -> SortCondition.eq(v);
              case "lt" -> SortCondition.lt(v);
              case "le" -> SortCondition.le(v);
              case "gt" -> SortCondition.gt(v);
              case "ge" -> SortCondition.ge(v);
              case "begins" -> SortCondition.beginsWith(v);
              case "between" -> {
                if (sortHigh == null) {
                  throw new CliException("between needs --sort-high");
                }
                yield SortCondition.between(List.of(v), Args.tuple(sortHigh, "--sort-high"));
              }
              default ->
                  throw new CliException("--sort-op must be eq, lt, le, gt, ge, between or begins");
            };
        b.sort(c);
      }
      return b.descending(descending).limit(limit).build();
    }
  }
}
