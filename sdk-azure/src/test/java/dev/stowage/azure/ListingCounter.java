package dev.stowage.azure;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipelineCallContext;
import com.azure.core.http.HttpPipelineNextPolicy;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.HttpPipelinePolicy;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import reactor.core.publisher.Mono;

/**
 * A pipeline policy for a test's Azure Tables client that counts the listing requests it sends and
 * the entities in their answers (from the response bodies, as the service sent them), and can cut
 * the service's pages short, as Azure may, to show that a reader continues with the continuation
 * token.
 */
final class ListingCounter implements HttpPipelinePolicy {
  private static final Pattern TOP = Pattern.compile("(\\$top|%24top)=(\\d+)");

  /** Listing requests counted so far. */
  final AtomicInteger listings = new AtomicInteger();

  /** Entities in the answers to the counted requests. */
  final AtomicInteger entities = new AtomicInteger();

  /** When positive, the most entities an Azure page holds, as a service cutting pages short. */
  final AtomicInteger shortPages = new AtomicInteger();

  /** When not null, only the listings of this Azure table count. */
  volatile String onlyTable;

  private final boolean filteredOnly;

  /**
   * @param filteredOnly whether only listings with a {@code $filter} count (else every GET does)
   */
  ListingCounter(boolean filteredOnly) {
    this.filteredOnly = filteredOnly;
  }

  @Override
  public Mono<HttpResponse> process(HttpPipelineCallContext context, HttpPipelineNextPolicy next) {
    String url = context.getHttpRequest().getUrl().toString();
    String table = onlyTable;
    if (context.getHttpRequest().getHttpMethod() != HttpMethod.GET
        || (filteredOnly && !(url.contains("$filter") || url.contains("%24filter")))
        || (table != null && !url.contains("/" + table + "()"))) {
      return next.process();
    }
    listings.incrementAndGet();
    int cap = shortPages.get();
    Matcher m = TOP.matcher(url);
    if (cap > 0 && m.find() && Integer.parseInt(m.group(2)) > cap) {
      context
          .getHttpRequest()
          .setUrl(m.replaceFirst(Matcher.quoteReplacement(m.group(1) + "=" + cap)));
    }
    return next.process()
        .flatMap(
            r -> {
              HttpResponse b = r.buffer();
              return b.getBodyAsString()
                  .defaultIfEmpty("")
                  .map(
                      body -> {
                        entities.addAndGet(occurrences(body, "\"PartitionKey\":"));
                        return b;
                      });
            });
  }

  private static int occurrences(String s, String of) {
    int n = 0;
    for (int at = s.indexOf(of); at >= 0; at = s.indexOf(of, at + of.length())) {
      n++;
    }
    return n;
  }
}
