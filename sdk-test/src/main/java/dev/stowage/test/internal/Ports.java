package dev.stowage.test.internal;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/** Free local ports and a check that something listens on one. */
public final class Ports {
  // Ports handed out in this JVM. The kernel may give a just-closed ephemeral port again at once,
  // so two calls in a row can return the same port; an emulator given it twice (Azurite's table
  // and queue services) then fails to bind its second service.
  private static final Set<Integer> HANDED_OUT = ConcurrentHashMap.newKeySet();

  private Ports() {}

  /** A port that was free a moment ago on the loopback interface, never handed out before. */
  public static int free() {
    return free(1)[0];
  }

  /**
   * {@code count} distinct ports that were free a moment ago, none handed out before in this JVM.
   * All are held open together while they are chosen, so the kernel cannot give one twice.
   */
  public static int[] free(int count) {
    List<ServerSocket> held = new ArrayList<>();
    try {
      int[] ports = new int[count];
      int found = 0;
      for (int tries = 0; found < count; tries++) {
        if (tries > 100 * count) {
          throw new IllegalStateException("no free local port after " + tries + " tries");
        }
        ServerSocket s = new ServerSocket(0);
        held.add(s);
        int port = s.getLocalPort();
        if (HANDED_OUT.add(port)) {
          ports[found++] = port;
        }
      }
      return ports;
    } catch (IOException e) {
      throw new IllegalStateException("no free local port", e);
    } finally {
      for (ServerSocket s : held) {
        try {
          s.close();
        } catch (IOException ignored) {
          // closing a probe socket
        }
      }
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
