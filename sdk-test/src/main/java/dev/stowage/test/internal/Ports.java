package dev.stowage.test.internal;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;

/** Free local ports and a check that something listens on one. */
public final class Ports {
  private Ports() {}

  /** A port that was free a moment ago on the loopback interface. */
  public static int free() {
    try (ServerSocket s = new ServerSocket(0)) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new IllegalStateException("no free local port", e);
    }
  }

  /** True if something accepts connections on {@code 127.0.0.1:port}. */
  public static boolean listening(int port) {
    try (Socket s = new Socket("127.0.0.1", port)) {
      return true;
    } catch (IOException e) {
      return false;
    }
  }
}
