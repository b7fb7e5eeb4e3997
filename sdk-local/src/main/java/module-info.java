/**
 * The local store: a persistent Stowage driver in one SQLite file ({@link
 * dev.stowage.local.LocalDriver}), for development machines, tools and the command line. Its
 * overflow blobs go to a directory beside the file ({@link dev.stowage.overflow.FileBlobStore}).
 */
module dev.stowage.local {
  requires transitive dev.stowage;
  requires java.sql;
  requires org.xerial.sqlitejdbc;

  exports dev.stowage.local;
}
