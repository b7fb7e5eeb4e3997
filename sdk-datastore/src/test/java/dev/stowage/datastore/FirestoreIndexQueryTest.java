package dev.stowage.datastore;

/** The query contract on the Firestore emulator in Datastore mode. */
class FirestoreIndexQueryTest extends IndexQueryContract {
  private final DatastoreDriver driver = DatastoreDriver.of(Emulator.firestore().client());

  @Override
  DatastoreDriver driver() {
    return driver;
  }
}
