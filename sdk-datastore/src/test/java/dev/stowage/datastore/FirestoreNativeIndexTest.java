package dev.stowage.datastore;

import com.google.cloud.datastore.Datastore;
import dev.stowage.test.Emulators;

/** The native index contract on the Firestore emulator in Datastore mode. */
class FirestoreNativeIndexTest extends NativeIndexContract {
  private final String namespace = "nix" + Long.toString(System.nanoTime() % 1_000_000, 36);

  @Override
  Datastore client() {
    return Emulators.shared().datastore().client();
  }

  @Override
  String namespace() {
    return namespace;
  }
}
