package org.electorallog.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.concurrent.Callable;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.SigningKey;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * Makes keys (docs/operations.md): the log's checkpoint signing keys (C2SP signed-note private keys,
 * {@code PRIVATE+KEY+<name>+<id>+<base64>}) with their verifier keys, a witness's keys (the same
 * private form; their public forms are cosignature/v1 and subtree/v1 vkeys, docs/witnesses.md), or a
 * sender's Ed25519 key (base64 seed) with its public key. A log and a witness get two keys of one name
 * (decision 146): Ed25519 in {@code <stem>.key}/{@code .vkey}, ML-DSA-44 in {@code <stem>.mldsa.key}/
 * {@code .mldsa.vkey}. Private files are created 0600 and public ones 0644; an existing file is never
 * overwritten. Exit 0 when written, 2 with a one-line message otherwise.
 */
@Command(
        name = "keygen",
        mixinStandardHelpOptions = true,
        description = "Make the log's signing key (log) or a sender's key (sender); never overwrites a file.")
public final class KeygenCommand implements Callable<Integer> {
    @Parameters(index = "0", description = "log, witness or sender")
    String kind;

    @Option(
            names = "--name",
            required = true,
            description = "log: the key name in signatures (the log's origin host, e.g. log.election.example); "
                    + "witness: the witness's name (e.g. witness.observer.example); "
                    + "sender: the file name stem (e.g. voting-service)")
    String name;

    @Option(names = "--out", description = "directory to write into (default: the current one)")
    Path out = Path.of(".");

    /** The stem suffix of the ML-DSA-44 key files. */
    static final String MLDSA = ".mldsa";

    @Override
    public Integer call() {
        try {
            Files.createDirectories(out);
            String stem = fileStem(name);
            for (String suffix : kind.equals("sender")
                    ? new String[] {".seed", ".pub"}
                    : new String[] {".key", ".vkey", MLDSA + ".key", MLDSA + ".vkey"}) {
                if (Files.exists(out.resolve(stem + suffix))) {
                    throw new FileAlreadyExistsException(
                            out.resolve(stem + suffix).toString());
                }
            }
            switch (kind) {
                case "log" -> {
                    NoteSigner signer = NoteSigner.generate(name);
                    Cosigner.Key pq = Cosigner.Key.generateMlDsa44(name);
                    Path key = write(out.resolve(stem + ".key"), signer.signerKey() + "\n", true);
                    Path vkey = write(out.resolve(stem + ".vkey"), signer.verifierKey() + "\n", false);
                    Path pqKey = write(out.resolve(stem + MLDSA + ".key"), pq.signerKey() + "\n", true);
                    Path pqVkey = write(out.resolve(stem + MLDSA + ".vkey"), pq.verifierKey() + "\n", false);
                    System.out.println("keygen: log signing key " + key + " (0600: give it to the projector as "
                            + "ELECTORAL_LOG_SIGNING_KEY_FILE); verifier key " + vkey + " (publish it; "
                            + "ELECTORAL_LOG_LOG_KEYS): " + signer.verifierKey());
                    System.out.println("keygen: log ML-DSA-44 key " + pqKey + " (0600: "
                            + "ELECTORAL_LOG_POST_QUANTUM_SIGNING_KEY_FILE); verifier key " + pqVkey
                            + " (publish it beside the other; a policy's second log line)");
                }
                case "witness" -> {
                    // a signed-note Ed25519 signer key (as Go's note.GenerateKey makes); it cosigns under its
                    // cosignature/v1 key ID (C2SP tlog-cosignature), which the .vkey file holds
                    NoteSigner signer = NoteSigner.generate(name);
                    String vkey = Cosigner.Key.parse(signer.signerKey()).verifierKey();
                    Path key = write(out.resolve(stem + ".key"), signer.signerKey() + "\n", true);
                    Path vkeyFile = write(out.resolve(stem + ".vkey"), vkey + "\n", false);
                    Cosigner.Key pq = Cosigner.Key.generateMlDsa44(name);
                    Path pqKey = write(out.resolve(stem + MLDSA + ".key"), pq.signerKey() + "\n", true);
                    Path pqVkey = write(out.resolve(stem + MLDSA + ".vkey"), pq.verifierKey() + "\n", false);
                    System.out.println("keygen: witness key " + key + " (0600: `electoral-log witness --key " + key
                            + "`); cosigner key " + vkeyFile + " (give it to the log's operator and voters): " + vkey);
                    System.out.println("keygen: witness ML-DSA-44 key " + pqKey + " (0600: `--post-quantum-key " + pqKey
                            + "`); cosigner key " + pqVkey + " (subtree/v1; a policy's witness line)");
                }
                case "sender" -> {
                    SigningKey k = SigningKey.generate();
                    Path seed = write(out.resolve(stem + ".seed"), k.seedBase64() + "\n", true);
                    String pub = Base64.getEncoder().encodeToString(k.publicKey());
                    Path pubFile = write(out.resolve(stem + ".pub"), pub + "\n", false);
                    System.out.println("keygen: sender key " + seed + " (0600: the sending service signs with it); "
                            + "public key " + pubFile + ": " + pub);
                }
                default -> {
                    System.err.println("keygen: say 'log', 'witness' or 'sender', not '" + kind + "'");
                    return 2;
                }
            }
            return 0;
        } catch (FileAlreadyExistsException e) {
            System.err.println("keygen: " + e.getFile() + " exists; keys are never overwritten (move it away first)");
            return 2;
        } catch (IOException | IllegalArgumentException e) {
            System.err.println("keygen: " + e.getMessage());
            return 2;
        }
    }

    /**
     * The files' name stem for a key name: signed-note allows a key name any characters but
     * whitespace and '+' ("example.com/witness" is a common one), a file name does not; each
     * character outside {@code [A-Za-z0-9._-]} becomes '_' ("example.com_witness"). Two names that
     * meet in one stem are kept apart by never overwriting a file.
     */
    static String fileStem(String keyName) {
        String stem = keyName.replaceAll("[^A-Za-z0-9._-]", "_");
        if (stem.isEmpty() || stem.equals(".") || stem.equals("..")) {
            throw new IllegalArgumentException("'" + keyName + "' makes no file name");
        }
        return stem;
    }

    /** Creates {@code file} with the text, 0600 when private, failing if it exists. */
    private static Path write(Path file, String text, boolean secret) throws IOException {
        Path created = Files.createFile(
                file,
                PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString(secret ? "rw-------" : "rw-r--r--")));
        Files.writeString(created, text, StandardCharsets.US_ASCII, StandardOpenOption.TRUNCATE_EXISTING);
        return created;
    }
}
