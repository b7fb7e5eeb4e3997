/**
 * Micrometer binding: request timers and byte counters ({@link
 * dev.stowage.micrometer.MicrometerMetrics}). Micrometer ({@code io.micrometer:micrometer-core}) is
 * an optional dependency of Stowage: add it to use this package; nothing else in Stowage loads it.
 */
package dev.stowage.micrometer;
