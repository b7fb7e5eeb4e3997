package dev.stowage.overflow;

import dev.stowage.InvalidRequestException;
import dev.stowage.UnavailableException;
import dev.stowage.overflow.internal.BlobKeys;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;
import java.util.stream.Stream;

/**
 * A {@link BlobStore} in a local directory: the blob {@code a/b/c} is the file {@code
 * <root>/a/b/c}. For development, single-machine deployments and tests.
 *
 * <p>Writes are atomic: data goes to a temporary file under {@code <root>/~tmp} (a name no key can
 * have, as {@code ~} is outside the key charset) and is then moved into place, so readers and
 * listings never see a partial blob. Thread-safe, and safe for several processes sharing the
 * directory. Keys that break {@link BlobStore}'s rules, including any that would resolve outside
 * the root ({@code ..}, absolute paths), throw {@link InvalidRequestException}; file system errors
 * throw {@link UnavailableException} with the {@link IOException} as cause. As on any file system,
 * a key cannot be both a blob and a directory ({@code a/b} and {@code a/b/c}); Stowage's overflow
 * keys never are. Empty directories left by deletes are kept. Arguments must not be null.
 */
public final class FileBlobStore implements BlobStore {
  private static final String TEMP_DIR = "~tmp";

  private final Path root;
  private final Path temp;

  /**
   * Uses (and creates if needed) the directory {@code root}.
   *
   * @throws UnavailableException if the directory cannot be created
   */
  public FileBlobStore(Path root) {
    this.root = Objects.requireNonNull(root, "root").toAbsolutePath().normalize();
    this.temp = this.root.resolve(TEMP_DIR);
    try {
      Files.createDirectories(temp);
    } catch (IOException e) {
      throw new UnavailableException("cannot create blob directory " + temp, e);
    }
  }

  /** The root directory. */
  public Path root() {
    return root;
  }

  /**
   * {@inheritDoc}
   *
   * @throws InvalidRequestException if the key is invalid, {@code length} is negative or the stream
   *     ends before {@code length} bytes
   */
  @Override
  public void put(String key, InputStream data, long length) {
    Path target = resolve(key);
    Objects.requireNonNull(data, "data");
    if (length < 0) {
      throw new InvalidRequestException("blob length " + length + " is negative");
    }
    Path tmp = temp.resolve(UUID.randomUUID() + ".tmp");
    try {
      long copied;
      try (OutputStream out = Files.newOutputStream(tmp)) {
        copied = copy(data, out, length);
      }
      if (copied != length) {
        throw new InvalidRequestException(
            "data of blob " + key + " ended after " + copied + " of " + length + " bytes");
      }
      Files.createDirectories(target.getParent());
      try {
        Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
      } catch (AtomicMoveNotSupportedException e) {
        Files.move(tmp, target, StandardCopyOption.REPLACE_EXISTING);
      }
    } catch (IOException e) {
      throw new UnavailableException("writing blob " + key + " under " + root + " failed", e);
    } finally {
      try {
        Files.deleteIfExists(tmp);
      } catch (IOException ignored) {
        // Only reached after another failure, which is the one to report.
      }
    }
  }

  @Override
  public Optional<InputStream> open(String key) {
    Path file = resolve(key);
    if (Files.isDirectory(file)) {
      return Optional.empty();
    }
    try {
      return Optional.of(Files.newInputStream(file));
    } catch (NoSuchFileException e) {
      return Optional.empty();
    } catch (IOException e) {
      throw new UnavailableException("opening blob " + key + " under " + root + " failed", e);
    }
  }

  @Override
  public void delete(String key) {
    Path file = resolve(key);
    try {
      if (!Files.isDirectory(file)) {
        Files.deleteIfExists(file);
      }
    } catch (IOException e) {
      throw new UnavailableException("deleting blob " + key + " under " + root + " failed", e);
    }
  }

  /**
   * {@inheritDoc}
   *
   * <p>The listing walks the directory of the prefix before returning, so it is a snapshot; blobs
   * written or deleted meanwhile may or may not appear, and a blob deleted during the walk is
   * skipped rather than failing the listing.
   */
  @Override
  public Stream<BlobInfo> list(String prefix) {
    BlobKeys.validatePrefix(prefix);
    int slash = prefix.lastIndexOf('/');
    Path start = slash < 0 ? root : root.resolve(prefix.substring(0, slash));
    if (!Files.isDirectory(start)) {
      return Stream.empty();
    }
    List<BlobInfo> found = new ArrayList<>();
    try {
      Files.walkFileTree(
          start,
          new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
              return dir.equals(temp) ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
              if (attrs.isRegularFile()) {
                String key = keyOf(file);
                if (key.startsWith(prefix)) {
                  found.add(new BlobInfo(key, attrs.size(), attrs.lastModifiedTime().toInstant()));
                }
              }
              return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) throws IOException {
              if (e instanceof NoSuchFileException) {
                return FileVisitResult.CONTINUE; // deleted while we walked
              }
              throw e;
            }
          });
    } catch (IOException e) {
      throw new UnavailableException("listing blobs under " + start + " failed", e);
    }
    return found.stream();
  }

  private String keyOf(Path file) {
    return root.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
  }

  private Path resolve(String key) {
    BlobKeys.validate(key);
    Path p = root.resolve(key).normalize();
    if (!p.startsWith(root) || p.equals(root) || p.startsWith(temp)) {
      throw new InvalidRequestException("blob key '" + key + "' resolves outside " + root);
    }
    return p;
  }

  private static long copy(InputStream in, OutputStream out, long length) throws IOException {
    byte[] buf = new byte[65536];
    long done = 0;
    while (done < length) {
      int n = in.read(buf, 0, (int) Math.min(buf.length, length - done));
      if (n < 0) {
        break;
      }
      out.write(buf, 0, n);
      done += n;
    }
    return done;
  }
}
