package dev.stowage.datastore;

import dev.stowage.test.Emulators;

/** The query contract on the Firestore emulator in Datastore mode. */
class FirestoreIndexQueryTest extends IndexQueryContract {
  private final DatastoreDriver driver =
      DatastoreDriver.of(Emulators.shared().datastore().client());

  @Override
  DatastoreDriver driver() {
    return driver;
  }
}
