package dev.stowage.dynamodb;

import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/** Stops the emulators when the JUnit launcher session ends (the shutdown hook is a backstop). */
public final class EmulatorSession implements LauncherSessionListener {
  @Override
  public void launcherSessionClosed(LauncherSession session) {
    Emulators.stopIfStarted();
  }
}
