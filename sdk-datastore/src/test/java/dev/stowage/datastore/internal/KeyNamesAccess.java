package dev.stowage.datastore.internal;

/** Opens package-private encoding steps to tests in other packages. */
public final class KeyNamesAccess {
  private KeyNamesAccess() {}

  /** See {@link KeyNames#toName}. */
  public static String toName(byte[] raw) {
    return KeyNames.toName(raw);
  }

  /** See {@link KeyNames#sevenBitGroups}. */
  public static byte[] sevenBitGroups(byte[] raw) {
    return KeyNames.sevenBitGroups(raw);
  }
}
