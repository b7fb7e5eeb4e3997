package dev.stowage.test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/**
 * What a user sees when something is missing: a failure (never a skip) whose message says what to
 * install. This module's tests have no driver modules on the class path, like a user who forgot
 * one.
 */
class MissingPiecesTest {
  @Test
  void aStoreWithoutItsDriverModuleSaysWhichToAdd() {
    assertThatThrownBy(() -> Emulators.shared().builder(Backend.AZURE))
        .isInstanceOf(EmulatorStartException.class)
        .hasMessageContaining("Add dev.stowage:sdk-azure");
  }

  @Test
  void azuriteThatIsNotInstalledSaysHowToInstallIt() {
    String before = System.getProperty("stowage.azurite");
    System.setProperty("stowage.azurite", "/nonexistent/node_modules");
    try {
      assertThatThrownBy(Azurite::start)
          .isInstanceOf(EmulatorStartException.class)
          .hasMessageContaining("npm install --save-dev azurite");
    } finally {
      restore("stowage.azurite", before);
    }
  }

  @Test
  void aMissingFirestoreEmulatorSaysWhichPackageToInstall() {
    String before = System.getProperty("stowage.firestore.emulator.jar");
    System.setProperty("stowage.firestore.emulator.jar", "/nonexistent/emulator.jar");
    try {
      assertThatThrownBy(DatastoreEmulator::startFirestore)
          .isInstanceOf(EmulatorStartException.class)
          .hasMessageContaining("apt-get install google-cloud-cli-firestore-emulator");
    } finally {
      restore("stowage.firestore.emulator.jar", before);
    }
  }

  private static void restore(String property, String value) {
    if (value == null) {
      System.clearProperty(property);
    } else {
      System.setProperty(property, value);
    }
  }
}
