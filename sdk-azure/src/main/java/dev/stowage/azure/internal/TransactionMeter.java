package dev.stowage.azure.internal;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelineSyncPolicy;
import com.azure.core.util.BinaryData;
import dev.stowage.spi.CapacityListener;
import dev.stowage.spi.TableLayout;
import dev.stowage.spi.TableRef;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Counts Azure Table Storage's billable storage transactions: a pipeline policy on the driver's
 * client that sees every REST request, so every request is one transaction, a batch (entity group
 * transaction) is one whatever it holds, and each page of a query is one. Each is reported to the
 * store's {@link CapacityListener} under the Stowage table whose data or index table it went to:
 * GETs as reads, deletes (and batches of deletes only) as deletes, the rest as writes. Responses
 * with a 5xx status (server busy, timeouts) are not counted. Thread-safe.
 */
public final class TransactionMeter extends HttpPipelineSyncPolicy {
  private final Map<String, TableRef> byName = new ConcurrentHashMap<>();
  private volatile CapacityListener listener = CapacityListener.NONE;

  /** Where transactions go from now on. */
  public void listener(CapacityListener l) {
    this.listener = l == null ? CapacityListener.NONE : l;
  }

  /** Learns the Azure tables of a Stowage table (a lookup once known). */
  public void learn(TableLayout layout) {
    if (!byName.containsKey(lower(Tables.dataName(layout)))) {
      byName.put(lower(Tables.dataName(layout)), layout.ref());
      byName.put(lower(Tables.indexName(layout)), layout.ref());
    }
  }

  private static String lower(String s) {
    return s.toLowerCase(Locale.ROOT);
  }

  @Override
  protected HttpResponse afterReceivedResponse(HttpPipelineCallContext context, HttpResponse r) {
    if (r.getStatusCode() >= 500 || listener == CapacityListener.NONE) {
      return r;
    }
    try {
      count(context.getHttpRequest());
    } catch (RuntimeException ignored) {
      // Metrics never fail a request.
    }
    return r;
  }

  private void count(HttpRequest request) {
    String path = request.getUrl().getPath();
    String last = path.substring(path.lastIndexOf('/') + 1);
    boolean batch = last.equals("$batch");
    String body = batch ? bodyOf(request) : "";
    String table = batch ? batchTable(body) : stripKey(last);
    TableRef ref = table == null ? null : byName.get(lower(table));
    if (ref == null) {
      return; // the service's own tables (table creation), or a table no store opened
    }
    HttpMethod m = request.getHttpMethod();
    if (m == HttpMethod.GET || m == HttpMethod.HEAD) {
      listener.consumed(ref, "", 1, 0, 0);
    } else if (m == HttpMethod.DELETE || batch && onlyDeletes(body)) {
      listener.consumed(ref, "", 0, 0, 1);
    } else {
      listener.consumed(ref, "", 0, 1, 0);
    }
  }

  private static String bodyOf(HttpRequest request) {
    BinaryData b = request.getBodyAsBinaryData();
    return b == null ? "" : b.toString();
  }

  /** {@code Orders(PartitionKey='a',RowKey='b')} or {@code Orders()}: {@code Orders}. */
  private static String stripKey(String segment) {
    int paren = segment.indexOf('(');
    return paren < 0 ? segment : segment.substring(0, paren);
  }

  /** The table of a batch: the first request line of its change set names it. */
  static String batchTable(String body) {
    for (String line : body.split("\r?\n")) {
      int sp = line.indexOf(' ');
      if (sp > 0 && line.endsWith(" HTTP/1.1") && isMethod(line.substring(0, sp))) {
        String url = line.substring(sp + 1, line.length() - " HTTP/1.1".length());
        int q = url.indexOf('?');
        if (q >= 0) {
          url = url.substring(0, q);
        }
        return stripKey(url.substring(url.lastIndexOf('/') + 1));
      }
    }
    return null;
  }

  private static boolean isMethod(String s) {
    return switch (s) {
      case "GET", "POST", "PUT", "PATCH", "MERGE", "DELETE" -> true;
      default -> false;
    };
  }

  private static boolean onlyDeletes(String body) {
    boolean any = false;
    for (String line : body.split("\r?\n")) {
      if (line.endsWith(" HTTP/1.1") && line.indexOf(' ') > 0) {
        String method = line.substring(0, line.indexOf(' '));
        if (isMethod(method)) {
          if (!method.equals("DELETE")) {
            return false;
          }
          any = true;
        }
      }
    }
    return any;
  }
}
