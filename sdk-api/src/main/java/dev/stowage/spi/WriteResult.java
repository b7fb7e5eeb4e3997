package dev.stowage.spi;

import java.util.Optional;

/**
 * What a single write returns.
 *
 * @param previous the item that was replaced or deleted, when the caller asked for it and one
 *     existed
 * @param token the new token of the written item (null for a delete)
 */
public record WriteResult(Optional<StoredItem> previous, String token) {}
