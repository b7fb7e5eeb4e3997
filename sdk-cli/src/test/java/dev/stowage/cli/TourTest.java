package dev.stowage.cli;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TourTest {
  @Test
  void tourWalksThroughEveryLandedFeatureWithMeasuredCosts() {
    Cli.Result r = Cli.run("tour");
    assertThat(r.code()).as(r.err()).isZero();
    String out = r.out();
    assertThat(out)
        .contains("1. Compressed and encrypted attributes")
        .containsPattern("stored 'notes': +binary envelope")
        .containsPattern("stored 'ssn': +binary envelope")
        .contains("read back with the keys: ssn=123-45-6789, equal to what was written: true")
        .contains("a store without the keys cannot read it")
        .contains("2. A 2 MB item overflows to the blob store")
        .contains("attributes [id, stowage:ovf, title]")
        .contains("read back: 2097152 bytes, equal: true (blobs read: 1)")
        .contains("projection of 'title' only: scan.tiff (blobs read: 0)")
        .contains("blobs: 1 written (2.0 MiB), 1 read, 1 deleted")
        .contains("3. Bidirectional cursor paging of a timeline")
        .contains("request 1:")
        .contains("at=[10, 9, 8, 7]")
        .contains("hasBefore=true  hasAfter=false")
        .contains("at=[6, 5, 4, 3]")
        .contains("at=[2, 1]")
        .contains("request 4 (after cursor of request 1): at=[12, 11]")
        .contains("A multi-column index query")
        .contains("Idempotent counters")
        .contains("req-2  -> calls=2  allowed")
        .contains("req-4  -> calls=4  LIMITED")
        .contains("The retried req-2 was applied once: calls=4 after 5 invocations.")
        .contains("Delete by index")
        .contains("dry run: 400 would be deleted")
        .contains("deleting [##############################] 400/400")
        .contains("deleted 400; items left in partition api-1: 0")
        .contains("Namespaces")
        .contains("\"plan\":\"pro\"")
        .contains("\"plan\":\"trial\"")
        .contains("is rejected")
        .containsPattern("cost: \\d+ requests? \\(\\d+ reads?, \\d+ writes?, \\d+ quer(y|ies)\\)")
        .contains("Tour complete: 7 steps")
        .contains("The other commands keep your data in the local store")
        .contains("stowage get --store orders --pk id:S --key o1")
        .contains("stowage console --store orders --pk id:S");
    String index =
        out.substring(out.indexOf("A multi-column index query"), out.indexOf("Idempotent"));
    assertThat(index)
        .doesNotContain("2026-11-20  total")
        .containsSubsequence(
            "o09  2026-11-21  total=60",
            "o07  2026-11-21  total=120",
            "o14  2026-11-22  total=15",
            "o15  2026-11-22  total=60",
            "o13  2026-11-22  total=120");
  }
}
