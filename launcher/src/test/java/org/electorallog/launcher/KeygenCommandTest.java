package org.electorallog.launcher;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Base64;
import java.util.List;
import org.electorallog.core.Checkpoint;
import org.electorallog.core.Cosigner;
import org.electorallog.core.NoteSigner;
import org.electorallog.core.NoteVerifier;
import org.electorallog.core.SignedNote;
import org.electorallog.core.SigningKey;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/** `electoral-log keygen`: keys that work together, private files 0600, nothing ever overwritten. */
class KeygenCommandTest {
    static int keygen(String... args) {
        return new CommandLine(new KeygenCommand()).execute(args);
    }

    @Test
    void theLogKeySignsCheckpointsItsVerifierKeyOpens() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "keygen-");
        assertEquals(0, keygen("log", "--name", "log.election.example", "--out", dir.toString()));
        Path key = dir.resolve("log.election.example.key");
        Path vkey = dir.resolve("log.election.example.vkey");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        assertEquals("rw-r--r--", PosixFilePermissions.toString(Files.getPosixFilePermissions(vkey)));
        NoteSigner signer = NoteSigner.parse(Files.readString(key).strip());
        NoteVerifier verifier = NoteVerifier.parse(Files.readString(vkey).strip());
        assertEquals(Files.readString(vkey).strip(), verifier.verifierKey(), "the verifier key renders as written");
        String note = new Checkpoint("log.election.example/board-1", 3, new byte[32]).sign(signer);
        assertEquals(3, Checkpoint.open(note, List.of(verifier)).size());
        // and its ML-DSA-44 key, same name, in files of its own: both signatures verify, each under its vkey
        Path pqKey = dir.resolve("log.election.example.mldsa.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(pqKey)));
        NoteSigner both = signer.withPostQuantum(Cosigner.Key.parse(Files.readString(pqKey)));
        NoteVerifier pq = NoteVerifier.parse(Files.readString(dir.resolve("log.election.example.mldsa.vkey")));
        assertTrue(pq.postQuantum());
        String signedTwice = new Checkpoint("log.election.example/board-1", 3, new byte[32]).sign(both, true, 5);
        assertEquals(3, Checkpoint.open(signedTwice, List.of(pq)).size());
        assertEquals(3, Checkpoint.open(signedTwice, List.of(verifier)).size());

        String before = Files.readString(key);
        assertEquals(2, keygen("log", "--name", "log.election.example", "--out", dir.toString()), "never overwritten");
        assertEquals(before, Files.readString(key));
        Files.delete(key);
        assertEquals(
                2,
                keygen("log", "--name", "log.election.example", "--out", dir.toString()),
                "nothing is written while the verifier key file exists");
        assertTrue(!Files.exists(key));
    }

    @Test
    void aSenderKeyAndItsPublicKey() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "keygen-");
        assertEquals(0, keygen("sender", "--name", "voting-service", "--out", dir.toString()));
        Path seed = dir.resolve("voting-service.seed");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(seed)));
        SigningKey k = SigningKey.parse(Files.readString(seed).strip());
        byte[] pub = Base64.getDecoder()
                .decode(Files.readString(dir.resolve("voting-service.pub")).strip());
        assertArrayEquals(k.publicKey(), pub);
        byte[] message = "statement".getBytes(StandardCharsets.UTF_8);
        assertTrue(SigningKey.verify(pub, message, k.sign(message)));
        assertEquals(2, keygen("bogus", "--name", "x", "--out", dir.toString()));
    }

    @Test
    void aWitnessKeyCosignsUnderItsVkeyAndTheWitnessCommandRefusesBadSetups() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "keygen-");
        assertEquals(0, keygen("witness", "--name", "witness.observer.example", "--out", dir.toString()));
        Path key = dir.resolve("witness.observer.example.key");
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        Cosigner.Key witness = Cosigner.Key.parse(Files.readString(key));
        String vkey =
                Files.readString(dir.resolve("witness.observer.example.vkey")).strip();
        assertEquals(vkey, witness.verifierKey());
        NoteSigner log = NoteSigner.generate("log.election.example");
        String note = new Checkpoint("log.election.example/board-1", 3, new byte[32]).sign(log);
        SignedNote cosigned = SignedNote.parse(note)
                .withSignature(witness.cosign(SignedNote.parse(note).text(), 1_780_000_000L));
        assertEquals(1_780_000_000L, Cosigner.Verifier.parse(vkey).verify(SignedNote.parse(cosigned.serialize())));
        Cosigner.Key pqWitness =
                Cosigner.Key.parse(Files.readString(dir.resolve("witness.observer.example.mldsa.key")));
        String pqVkey = Files.readString(dir.resolve("witness.observer.example.mldsa.vkey"))
                .strip();
        assertEquals(pqVkey, pqWitness.verifierKey());
        assertTrue(Cosigner.Verifier.parse(pqVkey).postQuantum());
        SignedNote twice = cosigned.withSignature(pqWitness.cosign(cosigned.text(), 1_780_000_001L));
        assertEquals(1_780_000_001L, Cosigner.Verifier.parse(pqVkey).verify(SignedNote.parse(twice.serialize())));

        assertEquals(
                2,
                new CommandLine(new WitnessCommand())
                        .execute("--key", dir.resolve("missing.key").toString(), "--log", "x/* " + log.verifierKey()),
                "no key file");
        assertEquals(
                2,
                new CommandLine(new WitnessCommand()).execute("--key", key.toString()),
                "a witness that follows no log");
        assertEquals(
                2,
                new CommandLine(new WitnessCommand())
                        .execute("--key", key.toString(), "--log", "* " + log.verifierKey()),
                "an origin pattern that matches anything");
        Path state = dir.resolve("state");
        assertEquals(
                2,
                new CommandLine(new WitnessCommand())
                        .execute(
                                "--key",
                                key.toString(),
                                "--log",
                                "x/* " + log.verifierKey(),
                                "--state",
                                state.toString(),
                                "--port",
                                "0"),
                "a missing state directory (issue 41)");
        assertTrue(!Files.exists(state), "and it is not made on the way");
        assertEquals(0, new CommandLine(new WitnessCommand()).execute("init", "--state", state.toString()));
        assertTrue(Files.exists(state.resolve("WITNESS-STATE")), "witness init makes it");
    }

    /** signed-note allows a '/' in a key name (example.com/witness is common); a file name does not. */
    @Test
    void aKeyNameWithASlashGetsFilesOfItsOwn() throws Exception {
        Path dir = Files.createTempDirectory(Files.createDirectories(Path.of("target/tmp")), "keygen-");
        assertEquals(0, keygen("witness", "--name", "example.com/witness", "--out", dir.toString()));
        Cosigner.Key witness = Cosigner.Key.parse(Files.readString(dir.resolve("example.com_witness.key")));
        assertEquals("example.com/witness", witness.name());
        assertEquals(
                witness.verifierKey(),
                Files.readString(dir.resolve("example.com_witness.vkey")).strip());
        assertEquals(0, keygen("log", "--name", "log.example/elections", "--out", dir.toString()));
        assertEquals(
                "log.example/elections",
                NoteSigner.parse(Files.readString(dir.resolve("log.example_elections.key"))
                                .strip())
                        .name());
        assertEquals(2, keygen("log", "--name", "log.example_elections", "--out", dir.toString()), "never overwritten");
        try (var files = Files.list(dir)) {
            assertEquals(
                    8,
                    files.count(),
                    "two keys of two kinds for each name, nothing in a folder the '/' would have named");
        }
    }
}
