/**
 * What a store's tables used and which partition keys are hot: {@link
 * dev.stowage.usage.UsageTracking} turns tracking on, {@link dev.stowage.usage.UsageSnapshot} is
 * what {@code Stowage.usage()} returns, with {@link dev.stowage.usage.TableUsage} per table and
 * {@link dev.stowage.usage.HotKeys} rankings (Space-Saving heavy hitters over a sliding window) per
 * table and index.
 */
package dev.stowage.usage;
