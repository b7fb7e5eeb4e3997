package dev.stowage.internal;

import dev.stowage.item.Item;
import dev.stowage.query.Page;
import java.util.List;
import java.util.function.Supplier;

/**
 * Builds pages whose cursors are sealed when an application first asks for them, for Stowage's
 * core. Not API: applications build pages (in tests, say) with {@link Page}'s public constructor.
 */
public final class PageAccess {
  /** Implemented by {@link Page} itself, which installs it when its class is initialised. */
  public interface Accessor {
    /** A page whose cursors come from the suppliers on first use (null: no such cursor). */
    Page lazy(
        List<Item> items,
        Supplier<String> before,
        boolean hasBefore,
        Supplier<String> after,
        boolean hasAfter);
  }

  private static Accessor accessor;

  static {
    // Initialising Page installs its accessor; doing it here means no caller can get in first.
    try {
      Class.forName(Page.class.getName(), true, Page.class.getClassLoader());
    } catch (ClassNotFoundException e) {
      throw new ExceptionInInitializerError(e);
    }
  }

  private PageAccess() {}

  /**
   * Called once, by {@link Page}'s class initialiser.
   *
   * @throws IllegalStateException if an accessor is already installed
   */
  public static synchronized void install(Accessor a) {
    if (accessor != null) {
      throw new IllegalStateException("the Page accessor is already installed");
    }
    accessor = a;
  }

  /**
   * A page whose cursors are sealed by the suppliers when first asked for, once each.
   *
   * @param before seals the before cursor, or null for none
   * @param after seals the after cursor, or null for none
   */
  public static Page lazy(
      List<Item> items,
      Supplier<String> before,
      boolean hasBefore,
      Supplier<String> after,
      boolean hasAfter) {
    return accessor.lazy(items, before, hasBefore, after, hasAfter);
  }
}
