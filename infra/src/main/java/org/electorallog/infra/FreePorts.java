package org.electorallog.infra;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Picks free TCP ports on the loopback interface. */
public final class FreePorts {
    private FreePorts() {}

    /** A port free on the loopback interface now (another process may still take it before its user binds it). */
    public static int pick() {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            s.setReuseAddress(true);
            return s.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException("no free port on the loopback interface", e);
        }
    }
}
