package dev.stowage.spi;

import dev.stowage.item.Key;

/**
 * A scan of a whole table in the driver's stable order (any order, as long as resuming after a key
 * neither skips nor repeats items that were not written meanwhile).
 *
 * @param limit most items to return
 * @param exclusiveStart resume after this key, or null
 * @param consistentRead strongly consistent read where offered
 */
public record DriverScan(int limit, Key exclusiveStart, boolean consistentRead) {}
