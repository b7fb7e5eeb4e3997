package dev.stowage.migrate.internal;

import dev.stowage.RetryPolicy;
import dev.stowage.TableSpec;
import dev.stowage.migrate.Migrator;
import dev.stowage.overflow.BlobStore;
import dev.stowage.spi.StorageDriver;
import dev.stowage.spi.TableLayout;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * What a {@link Migrator} was built with, checked: both sides and their specs, and how a run reads
 * and writes. Shared by the migrator's runs, copies and verification.
 *
 * @param spec the source's spec
 * @param targetSpec the target's spec (same key schema and attribute policies)
 * @param sourceDriver the driver read from
 * @param sourceBlobs the source's blob store, or null
 * @param sourceLayout the source table
 * @param sourceSide the source as the checkpoint records it
 * @param targetDriver the driver written to
 * @param targetBlobs the target's blob store, or null
 * @param targetLayout the target table
 * @param targetSide the target as the checkpoint records it
 * @param parallelism segments read and batch writes sent concurrently
 * @param segments segments the source is divided into
 * @param pageSize items per source scan page
 * @param checkpointFile the checkpoint file, or null
 * @param onProgress the progress listener, or null
 * @param retry how retryable errors of either side are retried
 */
public record Migration(
    TableSpec spec,
    TableSpec targetSpec,
    StorageDriver sourceDriver,
    BlobStore sourceBlobs,
    TableLayout sourceLayout,
    Checkpoint.Side sourceSide,
    StorageDriver targetDriver,
    BlobStore targetBlobs,
    TableLayout targetLayout,
    Checkpoint.Side targetSide,
    int parallelism,
    int segments,
    int pageSize,
    Path checkpointFile,
    Consumer<Migrator.Progress> onProgress,
    RetryPolicy retry) {}
