package org.electorallog.cluster;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * A TCP relay on a loopback port to one target port: the path between a client and a server that a
 * fault can cut. {@link #cut()} stops forwarding without closing anything (bytes sent either way are
 * held, a new connection is accepted and waits), as a switch that drops every packet would look to
 * both ends until their own timeouts; {@link #restore()} forwards again. A target that dies closes
 * the client's connection, as a reset would.
 */
public final class TcpRelay implements AutoCloseable {
    private final String name;
    private final ServerSocket server;
    private final InetSocketAddress target;
    private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
    private final Object gate = new Object();
    private boolean cut;
    private volatile boolean closed;

    private TcpRelay(String name, ServerSocket server, int targetPort) {
        this.name = name;
        this.server = server;
        this.target = new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort);
    }

    /** Listens on a free loopback port and relays every connection to {@code targetPort}. */
    public static TcpRelay start(String name, int targetPort) {
        try {
            ServerSocket s = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
            TcpRelay r = new TcpRelay(name, s, targetPort);
            Thread t = new Thread(r::accept, "relay-" + name);
            t.setDaemon(true);
            t.start();
            return r;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open the relay " + name, e);
        }
    }

    public int port() {
        return server.getLocalPort();
    }

    /** Stops forwarding in both directions; connections stay open and wait. */
    public void cut() {
        synchronized (gate) {
            cut = true;
        }
    }

    /** Forwards again what was held and what comes. */
    public void restore() {
        synchronized (gate) {
            cut = false;
            gate.notifyAll();
        }
    }

    private void awaitOpen() throws InterruptedException {
        synchronized (gate) {
            while (cut && !closed) {
                gate.wait();
            }
        }
    }

    private void accept() {
        while (!closed) {
            try {
                Socket client = server.accept();
                sockets.add(client);
                Thread t = new Thread(() -> connect(client), "relay-" + name + "-connect");
                t.setDaemon(true);
                t.start();
            } catch (IOException e) {
                if (!closed) {
                    System.err.println("relay " + name + ": accept failed: " + e.getMessage());
                }
            }
        }
    }

    private void connect(Socket client) {
        Socket upstream = new Socket();
        try {
            awaitOpen(); // a connection opened while cut waits, as its SYN would
            sockets.add(upstream);
            upstream.connect(target, 5_000);
            pump(client, upstream, "up");
            pump(upstream, client, "down");
        } catch (IOException | InterruptedException e) {
            closeQuietly(client);
            closeQuietly(upstream);
        }
    }

    private void pump(Socket from, Socket to, String direction) {
        Thread t = new Thread(
                () -> {
                    byte[] buf = new byte[64 * 1024];
                    try (InputStream in = from.getInputStream()) {
                        OutputStream out = to.getOutputStream();
                        int n;
                        while ((n = in.read(buf)) >= 0) {
                            awaitOpen();
                            out.write(buf, 0, n);
                            out.flush();
                        }
                    } catch (IOException | InterruptedException e) {
                        // either end went away: both are closed below, as a reset would close them
                    } finally {
                        closeQuietly(from);
                        closeQuietly(to);
                    }
                },
                "relay-" + name + "-" + direction);
        t.setDaemon(true);
        t.start();
    }

    private void closeQuietly(Socket s) {
        sockets.remove(s);
        try {
            s.close();
        } catch (IOException e) {
            // already closed by the other direction
        }
    }

    @Override
    public void close() {
        closed = true;
        restore();
        try {
            server.close();
        } catch (IOException e) {
            // closing a listening socket only fails when it is closed already
        }
        sockets.forEach(this::closeQuietly);
    }

    @Override
    public String toString() {
        return "relay " + name + " :" + port() + " -> :" + target.getPort();
    }
}
