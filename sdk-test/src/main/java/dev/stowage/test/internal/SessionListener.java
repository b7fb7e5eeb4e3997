package dev.stowage.test.internal;

import dev.stowage.test.Emulators;
import org.junit.platform.launcher.LauncherSession;
import org.junit.platform.launcher.LauncherSessionListener;

/**
 * Stops the emulators when the JUnit Platform test run ends, whichever engine (Jupiter, jqwik) used
 * them. Registered through {@code META-INF/services}; a JVM shutdown hook is the backstop.
 */
public final class SessionListener implements LauncherSessionListener {
  /** Created by the JUnit Platform's service loader. */
  public SessionListener() {}

  @Override
  public void launcherSessionClosed(LauncherSession session) {
    Emulators.stopAll();
  }
}
