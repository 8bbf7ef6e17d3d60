package org.electorallog.core;

import java.net.URI;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * The witnesses a log asks for cosignatures and how many must cosign a checkpoint for it to count
 * as witnessed (C2SP tlog-witness: clients "verify a quorum of cosignatures to prevent split-view
 * attacks"). Parsed from entries {@code "<cosigner vkey> <URL>"} (ELECTORAL_LOG_WITNESSES), the URL
 * being the witness's submission prefix ({@code <URL>/add-checkpoint}).
 */
public record WitnessPolicy(List<Entry> witnesses, int quorum) {
    /** One witness: its cosignature/v1 verifier and submission prefix. */
    public record Entry(Cosigner.Verifier verifier, URI url) {
        /** The witness's identity in storage: {@code <name>+<hex key ID>}. */
        public String id() {
            String[] parts = verifier.verifierKey().split("\\+", 3);
            return parts[0] + "+" + parts[1];
        }
    }

    public static final WitnessPolicy NONE = new WitnessPolicy(List.of(), 0);

    public WitnessPolicy {
        witnesses = List.copyOf(witnesses);
        if (quorum < 0 || quorum > witnesses.size() || (!witnesses.isEmpty() && quorum == 0)) {
            throw new IllegalArgumentException("the witness quorum must be between 1 and the " + witnesses.size()
                    + " witness(es) configured, not " + quorum);
        }
    }

    /**
     * Parses the entries and the quorum ({@code null} = a majority). Each entry is a cosigner vkey
     * and an http(s) URL separated by white space.
     */
    public static WitnessPolicy parse(List<String> entries, String quorum) {
        List<Entry> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        for (String raw : entries) {
            String[] parts = raw.strip().split("\\s+");
            if (parts.length != 2) {
                throw new IllegalArgumentException(
                        "a witness is '<cosigner vkey> <URL>' (the vkey from `electoral-log keygen witness`), got '"
                                + raw.strip() + "'");
            }
            URI url;
            try {
                url = URI.create(parts[1].endsWith("/") ? parts[1].substring(0, parts[1].length() - 1) : parts[1]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("witness URL '" + parts[1] + "' is not a URL: " + e.getMessage());
            }
            if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
                throw new IllegalArgumentException("witness URL '" + parts[1] + "' must be http:// or https://");
            }
            Entry e = new Entry(Cosigner.Verifier.parse(parts[0]), url);
            if (!ids.add(e.id())) {
                throw new IllegalArgumentException("witness " + e.id() + " is listed twice");
            }
            out.add(e);
        }
        int q;
        if (quorum == null || quorum.isBlank()) {
            q = out.isEmpty() ? 0 : out.size() / 2 + 1;
        } else {
            try {
                q = Integer.parseInt(quorum.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the witness quorum must be a number, got '" + quorum + "'");
            }
        }
        return new WitnessPolicy(out, q);
    }

    public boolean isEmpty() {
        return witnesses.isEmpty();
    }

    /** The verifiers, for {@link TlogProof#verify(byte[], String, java.util.Collection, java.util.Collection, int)}. */
    public List<Cosigner.Verifier> verifiers() {
        return witnesses.stream().map(Entry::verifier).toList();
    }
}
