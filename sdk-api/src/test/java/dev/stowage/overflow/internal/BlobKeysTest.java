package dev.stowage.overflow.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.stowage.InvalidRequestException;
import dev.stowage.spi.TableRef;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class BlobKeysTest {
  @Test
  void newKeysFollowTheDocumentedLayoutAndAreUnique() {
    TableRef t = new TableRef("dev1", "my_table-2");
    Set<String> keys = new HashSet<>();
    for (int i = 0; i < 1000; i++) {
      String k = BlobKeys.newKey(t);
      assertThat(k).matches("dev1/my_table-2/[0-9a-f]{32}");
      assertThat(BlobKeys.validate(k)).isEqualTo(k);
      assertThat(BlobKeys.tableOf(k)).contains(t);
      keys.add(k);
    }
    assertThat(keys).hasSize(1000);
  }

  @Test
  void tableOfRejectsForeignKeys() {
    assertThat(BlobKeys.tableOf("dev1/t/abc")).isEmpty();
    assertThat(BlobKeys.tableOf("Dev/tab/00112233445566778899aabbccddeeff")).isEmpty();
    assertThat(BlobKeys.tableOf("_root/tab/00112233445566778899aabbccddeeff"))
        .contains(new TableRef("", "tab"));
    assertThat(BlobKeys.tableOf("a/tab/00112233445566778899aabbccddeeff/x")).isEmpty();
  }

  @Test
  void prefixesAreValidated() {
    assertThat(BlobKeys.validatePrefix("")).isEmpty();
    assertThat(BlobKeys.validatePrefix("prod/")).isEqualTo("prod/");
    assertThat(BlobKeys.validatePrefix("prod/or")).isEqualTo("prod/or");
    assertThatThrownBy(() -> BlobKeys.validatePrefix("../"))
        .isInstanceOf(InvalidRequestException.class);
    assertThatThrownBy(() -> BlobKeys.validatePrefix("/x"))
        .isInstanceOf(InvalidRequestException.class);
  }
}
