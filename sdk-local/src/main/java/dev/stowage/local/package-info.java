/**
 * The local store: {@link dev.stowage.local.LocalDriver}, a persistent Stowage driver in one SQLite
 * file.
 */
package dev.stowage.local;
