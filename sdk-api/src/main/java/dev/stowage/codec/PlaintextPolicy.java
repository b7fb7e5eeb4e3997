package dev.stowage.codec;

/**
 * What reading does when an attribute declared encrypted holds a value that is not encrypted: a
 * value written before encryption was turned on, or an unencrypted envelope. Writes under an
 * encrypted policy always encrypt, whatever this policy says.
 *
 * <p>Use {@link #ALLOW} during the migration window after declaring an existing attribute
 * encrypted, run the re-encryption job, then switch to {@link #FORBID} so that a plaintext value
 * planted by someone with write access to the backend is rejected instead of trusted.
 */
public enum PlaintextPolicy {
  /** Reject plaintext in encrypted attributes with an {@link dev.stowage.IntegrityException}. */
  FORBID,

  /** Accept plaintext in encrypted attributes and return it as is (migration window). */
  ALLOW
}
