package dev.stowage.console.internal;

import dev.stowage.Stowage;
import dev.stowage.cost.CostEstimate;
import dev.stowage.cost.CostEstimator;
import dev.stowage.cost.PriceTable;
import dev.stowage.cost.TablePricing;
import dev.stowage.usage.HotKey;
import dev.stowage.usage.HotKeys;
import dev.stowage.usage.TableUsage;
import dev.stowage.usage.UsageSnapshot;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The usage view's data for one store: per table of the store's namespace, what it used, its hot
 * partition keys (table and indexes, by requests, bytes and throttles) and what it would cost per
 * month under each cloud's table model at the shipped list prices. A store built without usage
 * tracking reports {@code tracking: false} and nothing else.
 */
final class UsageReport {
  private UsageReport() {}

  static Map<String, Object> of(Catalog.StoreEntry store) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("label", store.label());
    Stowage stowage = store.stowage();
    UsageSnapshot usage;
    try {
      usage = stowage.usage();
    } catch (IllegalStateException off) {
      out.put("tracking", false);
      return out;
    }
    out.put("tracking", true);
    out.put("backend", usage.backend());
    out.put("observedSeconds", usage.observed().toMillis() / 1000.0);
    String own = ownModel(usage.backend());
    out.put("ownModel", own);
    PriceTable prices = PriceTable.defaults();
    out.put("pricesDate", null);
    List<CostEstimate> estimates = new ArrayList<>();
    for (TablePricing p : TablePricing.values()) {
      CostEstimate e = new CostEstimator(prices, p).estimate(usage);
      estimates.add(e);
      out.put("pricesDate", e.pricesDate());
      out.put("currency", e.currency());
    }
    List<Object> tables = new ArrayList<>();
    String namespace = stowage.namespace();
    for (TableUsage u : usage.tables()) {
      if (!u.namespace().equals(namespace)) {
        continue;
      }
      Map<String, Object> t = new LinkedHashMap<>();
      t.put("namespace", u.namespace());
      t.put("table", u.table());
      t.put("requests", u.requests());
      t.put("reads", u.reads());
      t.put("writes", u.writes());
      t.put("queries", u.queries());
      t.put("scans", u.scans());
      t.put("readUnits", u.readUnits());
      t.put("writeUnits", u.writeUnits());
      t.put("throttled", u.throttled());
      t.put("blobPuts", u.blobPuts());
      t.put("blobGets", u.blobGets());
      List<Object> hot = new ArrayList<>();
      for (HotKeys h : usage.hotKeys()) {
        if (h.namespace().equals(u.namespace()) && h.table().equals(u.table())) {
          hot.add(hotKeys(h));
        }
      }
      t.put("hotKeys", hot);
      List<Object> cost = new ArrayList<>();
      for (CostEstimate e : estimates) {
        for (CostEstimate.TableCost c : e.tables()) {
          if (c.namespace().equals(u.namespace()) && c.table().equals(u.table())) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("model", e.tablePricing().id());
            m.put("blobModel", e.blobPricing().id());
            m.put("perHour", c.perHour());
            m.put("perMonth", c.perMonth());
            m.put("own", e.tablePricing().id().equals(own));
            m.put("basis", c.basis().name());
            cost.add(m);
          }
        }
      }
      t.put("cost", cost);
      tables.add(t);
    }
    out.put("tables", tables);
    return out;
  }

  private static Map<String, Object> hotKeys(HotKeys h) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", h.isTable() ? null : h.index());
    m.put("windowSeconds", h.window().toSeconds());
    m.put("requests", h.requests());
    m.put("bytes", h.bytes());
    m.put("throttles", h.throttles());
    m.put("byRequests", keys(h.byRequests()));
    m.put("byBytes", keys(h.byBytes()));
    m.put("byThrottles", keys(h.byThrottles()));
    return m;
  }

  private static List<Object> keys(List<HotKey> keys) {
    List<Object> out = new ArrayList<>();
    for (HotKey k : keys) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("key", k.key());
      m.put("count", k.count());
      m.put("error", k.error());
      out.add(m);
    }
    return out;
  }

  /** The model of the store's own cloud, or null for a store without a cloud bill. */
  private static String ownModel(String backend) {
    try {
      return TablePricing.forBackend(backend).id();
    } catch (IllegalArgumentException none) {
      return null;
    }
  }
}
