package org.electorallog.core;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The witnesses a log asks for cosignatures, and the rule that says when a checkpoint counts as
 * witnessed (C2SP tlog-witness: clients "verify a quorum of cosignatures to prevent split-view
 * attacks"): always a C2SP tlog-policy ({@link TlogPolicy}, groups and nested quorums included), read
 * from a policy file ({@code ELECTORAL_LOG_WITNESS_POLICY_FILE}) or made from the older settings,
 * entries {@code "<cosigner vkey> <URL>"} (ELECTORAL_LOG_WITNESSES) and a number
 * (ELECTORAL_LOG_WITNESS_QUORUM). The URL is the witness's submission prefix ({@code
 * <URL>/add-checkpoint}).
 *
 * <p>From the older settings, a witness is a URL: the keys listed with one URL (an Ed25519 and an
 * ML-DSA-44 key of one witness, decision 146) form a group that counts when all of them cosigned,
 * and the quorum is that many such witnesses, a majority of them by default.
 */
public final class WitnessPolicy {
    /** One witness key the log asks for cosignatures: its verifier and submission prefix. */
    public record Entry(Cosigner.Verifier verifier, URI url) {
        /** The witness key's identity in storage: {@code <name>+<hex key ID>}. */
        public String id() {
            return WitnessPolicy.id(verifier);
        }
    }

    /** A witness key's identity in storage: {@code <name>+<hex key ID>}. */
    public static String id(Cosigner.Verifier key) {
        String[] parts = key.verifierKey().split("\\+", 3);
        return parts[0] + "+" + parts[1];
    }

    public static final WitnessPolicy NONE = new WitnessPolicy(List.of(), TlogPolicy.parse("quorum none\n"));

    private final List<Entry> witnesses;
    private final TlogPolicy rule;

    private WitnessPolicy(List<Entry> witnesses, TlogPolicy rule) {
        this.witnesses = List.copyOf(witnesses);
        this.rule = rule;
    }

    /**
     * The policy of the settings: the policy file's text when one is given ({@code policyText}, then
     * {@code entries} and {@code quorum} must be unset), else {@link #parse(List, String)}.
     */
    public static WitnessPolicy of(String policyText, List<String> entries, String quorum) {
        if (policyText == null) {
            return parse(entries, quorum);
        }
        if (!entries.isEmpty() || (quorum != null && !quorum.isBlank())) {
            throw new IllegalArgumentException("give the witnesses as a policy file or as a list and a quorum, not "
                    + "both (ELECTORAL_LOG_WITNESS_POLICY_FILE, or ELECTORAL_LOG_WITNESSES and _QUORUM)");
        }
        return of(TlogPolicy.parse(policyText));
    }

    /**
     * The policy file's witnesses and rule: each {@code witness} line with a URL is asked for
     * cosignatures (an http(s) submission prefix); one without a URL only counts when its
     * cosignature reaches the log another way.
     */
    public static WitnessPolicy of(TlogPolicy policy) {
        List<Entry> out = new ArrayList<>();
        for (TlogPolicy.Witness w : policy.witnesses()) {
            if (w.url() != null) {
                out.add(new Entry(w.key(), submissionPrefix(w.url().toString())));
            }
        }
        return new WitnessPolicy(out, policy);
    }

    /**
     * Parses the entries and the quorum ({@code null} = a majority of the witnesses). Each entry is a
     * cosigner vkey and an http(s) URL separated by white space; entries with the same URL are the
     * keys of one witness.
     */
    public static WitnessPolicy parse(List<String> entries, String quorum) {
        List<Entry> out = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        Map<URI, List<Entry>> byUrl = new LinkedHashMap<>();
        for (String raw : entries) {
            String[] parts = raw.strip().split("\\s+");
            if (parts.length != 2) {
                throw new IllegalArgumentException(
                        "a witness is '<cosigner vkey> <URL>' (the vkey from `electoral-log keygen witness`), got '"
                                + raw.strip() + "'");
            }
            Entry e = new Entry(Cosigner.Verifier.parse(parts[0]), submissionPrefix(parts[1]));
            if (!ids.add(e.id())) {
                throw new IllegalArgumentException("witness " + e.id() + " is listed twice");
            }
            out.add(e);
            byUrl.computeIfAbsent(e.url(), u -> new ArrayList<>()).add(e);
        }
        int q;
        if (quorum == null || quorum.isBlank()) {
            q = byUrl.isEmpty() ? 0 : byUrl.size() / 2 + 1;
        } else {
            try {
                q = Integer.parseInt(quorum.strip());
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("the witness quorum must be a number, got '" + quorum + "'");
            }
        }
        if (q < 0 || q > byUrl.size() || (!byUrl.isEmpty() && q == 0)) {
            throw new IllegalArgumentException("the witness quorum must be between 1 and the " + byUrl.size()
                    + " witness(es) configured (keys at one URL are one witness), not " + q);
        }
        return new WitnessPolicy(out, TlogPolicy.parse(policyText(byUrl, q)));
    }

    /** The older settings as a tlog-policy: a group a URL of all its keys, then {@code quorum} of the groups. */
    private static String policyText(Map<URI, List<Entry>> byUrl, int quorum) {
        if (byUrl.isEmpty()) {
            return "quorum none\n";
        }
        StringBuilder sb = new StringBuilder();
        List<String> witnesses = new ArrayList<>();
        int n = 0;
        for (Map.Entry<URI, List<Entry>> w : byUrl.entrySet()) {
            n++;
            List<String> keys = new ArrayList<>();
            for (Entry e : w.getValue()) {
                String name =
                        "w" + n + "-" + (keys.size() + 1) + "-" + e.verifier().name();
                keys.add(name);
                sb.append("witness ")
                        .append(name)
                        .append(' ')
                        .append(e.verifier().verifierKey())
                        .append(' ')
                        .append(w.getKey())
                        .append('\n');
            }
            if (keys.size() == 1) {
                witnesses.add(keys.get(0));
            } else {
                String group = "w" + n + "-" + w.getValue().get(0).verifier().name();
                sb.append("group ")
                        .append(group)
                        .append(" all ")
                        .append(String.join(" ", keys))
                        .append('\n');
                witnesses.add(group);
            }
        }
        sb.append("group witnesses ")
                .append(quorum)
                .append(' ')
                .append(String.join(" ", witnesses))
                .append('\n');
        sb.append("quorum witnesses\n");
        return sb.toString();
    }

    private static URI submissionPrefix(String raw) {
        URI url;
        try {
            url = URI.create(raw.endsWith("/") ? raw.substring(0, raw.length() - 1) : raw);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("witness URL '" + raw + "' is not a URL: " + e.getMessage());
        }
        if (!"http".equals(url.getScheme()) && !"https".equals(url.getScheme())) {
            throw new IllegalArgumentException("witness URL '" + raw + "' must be http:// or https://");
        }
        return url;
    }

    /** The witness keys the log asks for cosignatures (those with a URL). */
    public List<Entry> witnesses() {
        return witnesses;
    }

    public boolean isEmpty() {
        return rule.witnesses().isEmpty();
    }

    /** The rule: a C2SP tlog-policy with no log lines. */
    public TlogPolicy rule() {
        return rule;
    }

    /** Every witness key of the rule, for checking cosignatures (the voter page, the audit, proofs). */
    public List<Cosigner.Verifier> verifiers() {
        return rule.witnessKeys();
    }

    /** Whether the witness keys whose cosignatures verified, {@code cosigned}, meet the rule. */
    public boolean met(Collection<Cosigner.Verifier> cosigned) {
        return rule.met(cosigned);
    }

    /** The rule in words ("the group witnesses (2 of w1-..., w2-...)"). */
    public String describe() {
        return rule.rule();
    }

    /**
     * The number of cosigning keys the voter page asks for when the rule is a plain "k of these
     * keys", one key a witness; -1 when it has groups of keys (the page then evaluates the policy).
     */
    public int flatQuorum() {
        return rule.flatThreshold();
    }
}
