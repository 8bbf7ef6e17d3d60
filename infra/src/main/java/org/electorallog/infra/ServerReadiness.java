package org.electorallog.infra;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * When a server this build starts as a child process (Keycloak, the schema registry) is ready: a
 * probe URL answers 200. Probed every {@code interval} until then; the child exiting, or no answer
 * within the timeout, is thrown naming the server and its log.
 */
final class ServerReadiness {
    private ServerReadiness() {}

    static void await(Process process, URI probe, Duration timeout, Duration interval, String name, Path log) {
        HttpClient http =
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        HttpRequest request =
                HttpRequest.newBuilder(probe).timeout(Duration.ofSeconds(5)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new IllegalStateException(
                        name + " exited with " + process.exitValue() + " while starting; its log: " + log);
            }
            try {
                if (http.send(request, HttpResponse.BodyHandlers.discarding()).statusCode() == 200) {
                    return;
                }
            } catch (IOException e) {
                // not listening yet
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + name + " started", e);
            }
            try {
                process.waitFor(interval.toMillis(), TimeUnit.MILLISECONDS); // returns at once if it exits
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while " + name + " started", e);
            }
        }
        throw new IllegalStateException(name + " did not answer within " + timeout + "; its log: " + log);
    }
}
