package dev.stowage.beam;

import dev.stowage.typed.Compressed;
import dev.stowage.typed.Encrypted;
import dev.stowage.typed.PartitionKey;
import dev.stowage.typed.SortKey;
import dev.stowage.typed.StowageTable;
import java.math.BigDecimal;
import java.util.List;

/** A typed record the typed read maps items to: compressed and encrypted fields, a list. */
@StowageTable("trades")
public record Trade(
    @PartitionKey String desk,
    @SortKey long seq,
    BigDecimal amount,
    @Compressed String note,
    @Encrypted String counterparty,
    List<String> tags) {}
